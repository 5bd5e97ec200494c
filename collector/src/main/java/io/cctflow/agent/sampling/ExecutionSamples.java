package io.cctflow.agent.sampling;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.cctflow.agent.batch.MethodId;
import io.cctflow.agent.batch.SampleRecorder;
import io.cctflow.core.ThreadNames;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * Turns one {@code jdk.ExecutionSample} event into one sample for a {@link SampleRecorder}: the
 * stack root first with call-site lines ({@link CallSiteLines}), the thread name normalised
 * ({@link ThreadNames#normalise}) and the raw name beside it. The one conversion shared by the live {@link JfrSampler} and
 * the {@code .jfr} file importer, so both produce the same stacks from the same events. Hidden
 * frames (lambda forms, invokedynamic glue) are kept: they are real calling contexts, and
 * dropping them would join paths the JVM keeps apart.
 *
 * <p>Allocates nothing per event once its caches are warm: methods are cached by identity
 * ({@link MethodIds}), normalised thread names by raw name, and the frame and line arrays are
 * reused (the recorder copies what it keeps).
 *
 * <p>Not thread-safe: owned by the one thread that reads the events.
 */
public final class ExecutionSamples {
    /** What {@link #read} did with an event. */
    public enum Outcome {
        /** The sample went to the recorder. */
        RECORDED,
        /** The sampled thread is one of the agent's own; nothing was recorded. */
        AGENT_THREAD,
        /** The sampled thread is left out by the {@link ThreadFilter}; nothing was recorded. */
        FILTERED_THREAD,
        /** The event has no stack; nothing was recorded. */
        NO_STACK
    }

    private static final int MAX_THREAD_NAMES = 4096;
    // cached for a raw name the filter rejects; compared by identity
    private static final String FILTERED = new String("<filtered>");
    private static final String AGENT = new String("<agent>");

    private final boolean skipAgentThreads;
    private final ThreadFilter filter;
    private final MethodIds methodIds = new MethodIds();
    private final Map<String, String> threadNames = new HashMap<>();
    private MethodId[] frames = new MethodId[256];
    private int[] lines = new int[256];
    // the raw name of the thread threadName(event) last looked at
    private String rawThread = ThreadNames.UNKNOWN;

    /**
     * @param skipAgentThreads whether samples of the agent's own threads are left out (live
     *     sampling: they are the agent's overhead, not the host's profile)
     */
    public ExecutionSamples(boolean skipAgentThreads) {
        this(skipAgentThreads, ThreadFilter.ALL);
    }

    /**
     * As above, recording only threads that {@code filter} accepts (by raw name).
     */
    public ExecutionSamples(boolean skipAgentThreads, ThreadFilter filter) {
        this.skipAgentThreads = skipAgentThreads;
        this.filter = filter;
    }

    /**
     * Hands the event's sample to {@code recorder}.
     *
     * @throws RuntimeException when JFR cannot decode the event's fields
     */
    public Outcome read(RecordedEvent event, SampleRecorder recorder) {
        String thread = threadName(event);
        if (thread == AGENT) {
            return Outcome.AGENT_THREAD;
        }
        if (thread == FILTERED) {
            return Outcome.FILTERED_THREAD;
        }
        RecordedStackTrace stackTrace = event.getStackTrace();
        List<RecordedFrame> recorded = stackTrace == null ? List.of() : stackTrace.getFrames();
        int depth = recorded.size();
        if (depth == 0) {
            return Outcome.NO_STACK;
        }
        ensureCapacity(depth);
        // JFR lists the top frame first; the batch wants the root first
        for (int i = 0; i < depth; i++) {
            RecordedFrame frame = recorded.get(depth - 1 - i);
            frames[i] = methodIds.of(frame.getMethod());
            lines[i] = frame.getLineNumber();
        }
        CallSiteLines.fromExecutingLines(lines, depth);
        recorder.record(frames, lines, depth, thread, rawThread, stackTrace.isTruncated());
        return Outcome.RECORDED;
    }

    /**
     * The normalised name of the sampled thread, or {@link #AGENT} / {@link #FILTERED} for a
     * skipped thread. A thread without a Java name is filtered as {@link ThreadNames#UNKNOWN}.
     */
    private String threadName(RecordedEvent event) {
        RecordedThread thread = event.getThread("sampledThread");
        String raw = thread == null ? null : thread.getJavaName();
        rawThread = raw == null ? ThreadNames.UNKNOWN : raw;
        if (raw == null) {
            return filter.accepts(ThreadNames.UNKNOWN) ? ThreadNames.UNKNOWN : FILTERED;
        }
        String normalised = threadNames.get(raw);
        if (normalised == null) {
            if (threadNames.size() >= MAX_THREAD_NAMES) {
                threadNames.clear();
            }
            normalised = classify(raw);
            threadNames.put(raw, normalised);
        }
        return normalised;
    }

    private String classify(String raw) {
        if (skipAgentThreads && isAgentThread(raw)) {
            return AGENT;
        }
        return filter.accepts(raw) ? ThreadNames.normalise(raw) : FILTERED;
    }

    /**
     * True for the agent's own threads ({@code cctflow-*}) and its Kafka producer's network thread
     * ({@code kafka-producer-network-thread | cctflow-agent}): their CPU is the agent's overhead,
     * not the host's profile, and counting it would dilute every share the user sees.
     */
    static boolean isAgentThread(String rawName) {
        return rawName.startsWith("cctflow-") || rawName.endsWith("| cctflow-agent");
    }

    private void ensureCapacity(int depth) {
        if (frames.length < depth) {
            int n = Math.max(depth, frames.length * 2);
            frames = new MethodId[n];
            lines = new int[n];
        }
    }
}
