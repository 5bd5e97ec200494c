package io.cctflow.agent.batch;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.concurrent.locks.ReentrantLock;

import io.cctflow.schema.AgentStats;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.core.RawThreadNames;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.PoolThreads;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;

/**
 * Aggregates samples between two flushes into one {@link SampleBatch}: interns methods into a
 * dictionary scoped to the batch, and counts identical (frames, call-site lines, thread,
 * truncated) stacks once with a count.
 *
 * <p>Thread safety: one thread records (the JFR stream) while another drains (the flusher); both
 * take one lock, once per sample and once per batch, never per frame. Building the Avro batch
 * happens outside the lock on state no other thread can see any more.
 *
 * <p>Each batch's stats carry the stack depth in effect and, when more than 1 % of the batch's
 * samples were truncated, a {@link TruncationWarning} naming the flag that fixes it.
 *
 * <p>Memory is bounded: a batch holds at most {@code maxMethods} methods and {@code maxStacks}
 * distinct stacks; a sample that would exceed either is dropped and counted. Beside the normalised
 * thread names of its stacks, a batch keeps raw thread names (as the application named its threads)
 * when the sampler gives them: at most {@link #MAX_RAW_NAMES_PER_POOL} per pool and
 * {@link #MAX_RAW_NAME_POOLS} pools, the first seen; more are not kept (the samples are).
 */
public final class BatchAggregator implements SampleRecorder {
    /** Default bound on the methods of one batch. */
    public static final int DEFAULT_MAX_METHODS = 1 << 16;
    /** Default bound on the distinct stacks of one batch. */
    public static final int DEFAULT_MAX_STACKS = 1 << 16;
    /**
     * Raw thread names a batch keeps per pool (normalised name): the first seen in the batch. A
     * constant, inlined by javac: the agent jar does not carry {@code RawThreadNames}.
     */
    public static final int MAX_RAW_NAMES_PER_POOL = RawThreadNames.MAX_PER_POOL;
    /** Pools whose raw thread names a batch keeps: the first seen in the batch. */
    public static final int MAX_RAW_NAME_POOLS = 1024;

    private final InstanceInfo instance;
    private final int samplingPeriodMillis;
    private final AgentCounters counters;
    private final int maxMethods;
    private final int maxStacks;
    private final int stackDepth;

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private Window window;
    private long windowStartMillis;
    private long nextSequence;
    private int[] scratchFrames = new int[256];

    /**
     * @param instance identity of this JVM, copied into every batch
     * @param windowStartMillis start of the first window, epoch milliseconds
     */
    public BatchAggregator(InstanceInfo instance, int samplingPeriodMillis, long windowStartMillis,
            AgentCounters counters) {
        this(instance, samplingPeriodMillis, windowStartMillis, counters, DEFAULT_MAX_METHODS,
                DEFAULT_MAX_STACKS, 0);
    }

    /** As above, with explicit bounds per batch. */
    public BatchAggregator(InstanceInfo instance, int samplingPeriodMillis, long windowStartMillis,
            AgentCounters counters, int maxMethods, int maxStacks) {
        this(instance, samplingPeriodMillis, windowStartMillis, counters, maxMethods, maxStacks, 0);
    }

    /**
     * As above, for the live agent.
     *
     * @param stackDepth the stack depth the agent asked JFR for, reported in each batch's stats
     *     when no stack was truncated (a truncated stack shows the depth really in effect); 0
     *     when unknown
     */
    public BatchAggregator(InstanceInfo instance, int samplingPeriodMillis, long windowStartMillis,
            AgentCounters counters, int maxMethods, int maxStacks, int stackDepth) {
        this.stackDepth = stackDepth;
        this.instance = instance;
        this.samplingPeriodMillis = samplingPeriodMillis;
        this.counters = counters;
        this.maxMethods = maxMethods;
        this.maxStacks = maxStacks;
        this.windowStartMillis = windowStartMillis;
        this.window = new Window();
    }

    @Override
    public void record(MethodId[] frames, int[] lines, int depth, String thread, boolean truncated) {
        record(frames, lines, depth, thread, null, truncated);
    }

    /** Records the sample, and its thread's raw name within the bounds {@link #MAX_RAW_NAMES_PER_POOL} and {@link #MAX_RAW_NAME_POOLS}. */
    @Override
    public void record(MethodId[] frames, int[] lines, int depth, String thread, String rawThread, boolean truncated) {
        counters.sampleSeen(truncated);
        lock.lock();
        try {
            if (scratchFrames.length < depth) {
                scratchFrames = new int[Math.max(depth, scratchFrames.length * 2)];
            }
            for (int i = 0; i < depth; i++) {
                int index = window.intern(frames[i], maxMethods);
                if (index < 0) {
                    // the frames interned so far stay in the dictionary: unused, but harmless
                    counters.sampleDropped();
                    return;
                }
                scratchFrames[i] = index;
            }
            if (!window.stacks.add(scratchFrames, lines, depth, thread, truncated, maxStacks, 1)) {
                counters.sampleDropped();
                return;
            }
            window.count(1, depth, truncated);
            if (rawThread != null) {
                window.rawNames.see(thread, rawThread);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records {@code count} samples of one stack if they fit into the current window's bounds,
     * for importers that would rather start a new batch than drop samples. When they do not fit,
     * records and counts nothing and returns false; the caller drains and tries again. An empty
     * window always takes the stack (what does not fit into an empty window is dropped and
     * counted, as in {@link #record}).
     *
     * @param count samples of this stack, at least 1
     * @return false when the window is not empty and the stack would exceed a bound
     */
    public boolean tryRecord(MethodId[] frames, int[] lines, int depth, String thread,
            boolean truncated, long count) {
        lock.lock();
        try {
            boolean empty = window.samples == 0;
            if (!empty && window.methods.size() + window.unknownMethods(frames, depth) > maxMethods) {
                return false;
            }
            if (scratchFrames.length < depth) {
                scratchFrames = new int[Math.max(depth, scratchFrames.length * 2)];
            }
            for (int i = 0; i < depth; i++) {
                int index = window.intern(frames[i], maxMethods);
                if (index < 0) {
                    counters.samplesSeen(count, truncated);
                    counters.samplesDropped(count);
                    return true;
                }
                scratchFrames[i] = index;
            }
            if (!empty && window.stacks.size() >= maxStacks
                    && !window.stacks.contains(scratchFrames, lines, depth, thread, truncated)) {
                return false; // the methods interned above stay in the dictionary: harmless
            }
            counters.samplesSeen(count, truncated);
            if (!window.stacks.add(scratchFrames, lines, depth, thread, truncated, maxStacks, count)) {
                counters.samplesDropped(count);
                return true;
            }
            window.count(count, depth, truncated);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the current window at {@code windowEndMillis} and returns its batch, then starts a new
     * window (with a fresh method dictionary) there. An empty window produces no batch and uses
     * no sequence number; the next window still starts at {@code windowEndMillis}.
     *
     * @return the batch, or null when no sample was recorded in the window
     */
    public SampleBatch drain(long windowEndMillis) {
        return drain(windowEndMillis, false);
    }

    /**
     * As {@link #drain(long)}, but a window without samples still gives a batch: a heartbeat with
     * no methods and no stacks whose stats are the counters now (stack depth the configured one,
     * no truncation warning), numbered in sequence like any batch (so a lost one shows as a gap).
     * The live agent sends one every flush interval, so an idle JVM's counters (drops, queue,
     * send latency) keep arriving and it is not taken for a dead one; importers, which batch
     * recorded history, use {@link #drain(long)}.
     *
     * @return the batch, never null
     */
    public SampleBatch drainOrHeartbeat(long windowEndMillis) {
        return drain(windowEndMillis, true);
    }

    private SampleBatch drain(long windowEndMillis, boolean heartbeat) {
        Window done;
        long start;
        long end;
        long sequence;
        lock.lock();
        try {
            start = windowStartMillis;
            // a wall clock can step back; a window must never end before it starts
            end = Math.max(windowEndMillis, start);
            windowStartMillis = end;
            if (window.samples == 0 && !heartbeat) {
                return null;
            }
            done = window;
            window = new Window();
            sequence = nextSequence++;
        } finally {
            lock.unlock();
        }
        return SampleBatch.newBuilder()
                .setInstance(instance)
                .setWindowStartMillis(start)
                .setWindowEndMillis(end)
                .setSequence(sequence)
                .setSamplingPeriodMillis(samplingPeriodMillis)
                // a window without samples has no stacks, and only unused methods (those of
                // samples dropped at a bound): a heartbeat carries neither
                .setMethods(done.samples > 0 ? done.methodRefs() : new ArrayList<>())
                .setStacks(done.stackRecords())
                .setStats(stats(done))
                .setRawThreadNames(done.rawNames.toRecords())
                .build();
    }

    /** The cumulative counters, plus this window's stack depth and truncation warning. */
    private AgentStats stats(Window done) {
        AgentStats stats = counters.snapshot();
        int depth = done.maxTruncatedDepth > 0 ? done.maxTruncatedDepth : stackDepth;
        stats.setStackDepth(depth);
        stats.setTruncationWarning(TruncationWarning.of(done.samples, done.truncated, depth));
        return stats;
    }

    /** The samples and dictionary of one window. Guarded by the aggregator's lock until drained. */
    private static final class Window {
        final Map<MethodId, Integer> dictionary = new HashMap<>();
        final List<MethodId> methods = new ArrayList<>();
        final StackTable stacks = new StackTable();
        final RawNames rawNames = new RawNames();
        long samples;
        long truncated;
        // JFR cuts a truncated stack at exactly its depth limit, so this is the limit in effect
        int maxTruncatedDepth;

        void count(long n, int depth, boolean isTruncated) {
            samples += n;
            if (isTruncated) {
                truncated += n;
                maxTruncatedDepth = Math.max(maxTruncatedDepth, depth);
            }
        }

        /** How many of the frames are not in the dictionary (repeats counted: an upper bound). */
        int unknownMethods(MethodId[] frames, int depth) {
            int n = 0;
            for (int i = 0; i < depth; i++) {
                if (!dictionary.containsKey(frames[i])) {
                    n++;
                }
            }
            return n;
        }

        /** Index of the method in this window's dictionary, or -1 when it is full. */
        int intern(MethodId method, int maxMethods) {
            Integer index = dictionary.get(method);
            if (index != null) {
                return index;
            }
            if (methods.size() >= maxMethods) {
                return -1;
            }
            int fresh = methods.size();
            methods.add(method);
            dictionary.put(method, fresh);
            return fresh;
        }

        List<MethodRef> methodRefs() {
            List<MethodRef> refs = new ArrayList<>(methods.size());
            for (MethodId m : methods) {
                refs.add(m.toMethodRef());
            }
            return refs;
        }

        List<Stack> stackRecords() {
            List<Stack> records = new ArrayList<>(stacks.size());
            for (int i = 0; i < stacks.size(); i++) {
                StackTable.Entry e = stacks.entry(i);
                records.add(Stack.newBuilder()
                        .setFrames(new IntList(e.frames))
                        .setLines(new IntList(e.lines))
                        .setThread(e.thread)
                        .setTruncated(e.truncated)
                        .setCount(e.count)
                        .build());
            }
            return records;
        }
    }

    /**
     * The raw thread names of one window, per pool: the first {@link #MAX_RAW_NAMES_PER_POOL}
     * distinct names of each of the first {@link #MAX_RAW_NAME_POOLS} pools. A sample of a known
     * name costs a map lookup and a scan of at most that many names; nothing is allocated for it.
     */
    private static final class RawNames {
        private final Map<String, List<String>> byPool = new HashMap<>();

        void see(String pool, String raw) {
            List<String> names = byPool.get(pool);
            if (names == null) {
                if (byPool.size() >= MAX_RAW_NAME_POOLS) {
                    return;
                }
                names = new ArrayList<>(2);
                byPool.put(pool, names);
            }
            if (names.size() < MAX_RAW_NAMES_PER_POOL && !names.contains(raw)) {
                names.add(raw);
            }
        }

        List<PoolThreads> toRecords() {
            List<PoolThreads> records = new ArrayList<>(byPool.size());
            for (Map.Entry<String, List<String>> e : byPool.entrySet()) {
                records.add(new PoolThreads(e.getKey(), e.getValue()));
            }
            return records;
        }
    }

    /** A read-only list view of an int array, so a batch does not copy every stack into boxes. */
    private static final class IntList extends AbstractList<Integer> implements RandomAccess {
        private final int[] values;

        IntList(int[] values) {
            this.values = values;
        }

        @Override
        public Integer get(int index) {
            return values[index];
        }

        @Override
        public int size() {
            return values.length;
        }
    }
}
