package io.cctflow.agent.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.batch.MethodId;
import io.cctflow.agent.batch.SampleRecorder;
import jdk.jfr.FlightRecorder;
import jdk.jfr.RecordingState;

/** Runs the sampler against real JFR in this JVM. */
class JfrSamplerTest {
    private static final String SPIN = "spin";

    /** A copy of one recorded sample. */
    private record Sample(List<MethodId> frames, int[] lines, String thread, boolean truncated) {
    }

    /** Keeps copies of the samples that contain {@link #SPIN}. */
    private static final class Capture implements SampleRecorder {
        final List<Sample> samples = new ArrayList<>();
        final CountDownLatch found = new CountDownLatch(1);

        @Override
        public synchronized void record(MethodId[] frames, int[] lines, int depth, String thread,
                boolean truncated) {
            List<MethodId> copy = List.of(Arrays.copyOf(frames, depth));
            if (copy.stream().anyMatch(m -> m.methodName().equals(SPIN))) {
                samples.add(new Sample(copy, Arrays.copyOf(lines, depth), thread, truncated));
                found.countDown();
            }
        }
    }

    private static volatile int spinLine;
    private static volatile double sink;

    @Test
    @Timeout(60)
    void deliversRootFirstStacksWithCallSiteLinesAndNormalisedThreadNames() throws Exception {
        assumeTrue(JfrSampler.isJfrAvailable(), "JFR not available");
        Capture capture = new Capture();
        AgentCounters counters = new AgentCounters();
        JfrSampler sampler = new JfrSampler(10, 256, capture, counters);
        Thread stream = new Thread(sampler::run, "test-jfr-stream");
        stream.setDaemon(true);
        AtomicBoolean stop = new AtomicBoolean();
        Thread worker = new Thread(() -> busyCaller(stop), "busy-worker-17");
        worker.setDaemon(true);
        try {
            stream.start();
            assertThat(sampler.awaitStarted(Duration.ofSeconds(20))).isTrue();
            worker.start();
            assertThat(capture.found.await(30, TimeUnit.SECONDS))
                    .as("a sample of %s within 30 s", SPIN).isTrue();
        } finally {
            stop.set(true);
            sampler.close();
            sampler.close(); // idempotent
            stream.join(10_000);
            worker.join(10_000);
        }
        assertThat(stream.isAlive()).as("run() returns after close()").isFalse();

        Sample s;
        synchronized (capture) {
            s = capture.samples.get(0);
        }
        List<String> names = s.frames().stream().map(MethodId::methodName).toList();
        int spinAt = names.indexOf(SPIN);
        int callerAt = names.indexOf("busyCaller");
        assertThat(callerAt).as("caller before callee, root first: %s", names).isBetween(0, spinAt - 1);
        assertThat(s.frames().get(0).className()).isEqualTo("java.lang.Thread");
        assertThat(s.frames().get(spinAt).className()).isEqualTo(JfrSamplerTest.class.getName());
        assertThat(s.frames().get(spinAt).descriptor()).isEqualTo("(Ljava/util/concurrent/atomic/AtomicBoolean;)D");
        assertThat(s.lines()[0]).isZero();
        assertThat(s.lines()[spinAt]).as("call-site line of spin").isEqualTo(spinLine);
        assertThat(s.thread()).isEqualTo("busy-worker-#");
        assertThat(s.truncated()).isFalse();
        assertThat(counters.snapshot().getSamplesDropped()).isZero();
    }

    @Test
    @Timeout(60)
    void runsItsStartUpOnceOnTheStreamThreadWhenTheRecordingRunsAndSamplesOnWhenItFails() throws Exception {
        assumeTrue(JfrSampler.isJfrAvailable(), "JFR not available");
        Capture capture = new Capture();
        JfrSampler sampler = new JfrSampler(10, 256, capture, new AgentCounters());
        List<String> startUps = new CopyOnWriteArrayList<>();
        Thread stream = new Thread(() -> sampler.run(() -> {
            boolean running = FlightRecorder.getFlightRecorder().getRecordings().stream()
                    .anyMatch(r -> r.getState() == RecordingState.RUNNING);
            startUps.add(Thread.currentThread().getName() + (running ? " while recording" : " before recording"));
            throw new IllegalStateException("start-up failed");
        }), "test-jfr-stream");
        stream.setDaemon(true);
        AtomicBoolean stop = new AtomicBoolean();
        Thread worker = new Thread(() -> busyCaller(stop), "busy-worker-1");
        worker.setDaemon(true);
        try {
            stream.start();
            assertThat(sampler.awaitStarted(Duration.ofSeconds(20))).isTrue();
            worker.start();
            assertThat(capture.found.await(30, TimeUnit.SECONDS)).as("samples after the failed start-up").isTrue();
        } finally {
            stop.set(true);
            sampler.close();
            stream.join(10_000);
            worker.join(10_000);
        }
        assertThat(startUps).containsExactly("test-jfr-stream while recording");
    }

    @Test
    void closeBeforeRunMakesRunReturnAtOnce() {
        JfrSampler sampler = new JfrSampler(10, 256, (f, l, d, t, tr) -> { }, new AgentCounters());
        sampler.close();
        AtomicBoolean startedUp = new AtomicBoolean();
        assertThat(sampler.run(() -> startedUp.set(true))).as("never sampled").isFalse();
        assertThat(startedUp).as("start-up ran").isFalse();
    }

    /** Counts samples of {@link #SPIN} per normalised thread name. */
    private static final class ThreadCounts implements SampleRecorder {
        final Map<String, Integer> counts = new HashMap<>();

        @Override
        public synchronized void record(MethodId[] frames, int[] lines, int depth, String thread,
                boolean truncated) {
            for (int i = 0; i < depth; i++) {
                if (frames[i].methodName().equals(SPIN)) {
                    counts.merge(thread, 1, Integer::sum);
                    return;
                }
            }
        }

        synchronized Map<String, Integer> snapshot() {
            return new HashMap<>(counts);
        }
    }

    @Test
    @Timeout(120)
    void samplesOnlyThreadsTheFilterAccepts() throws Exception {
        assumeTrue(JfrSampler.isJfrAvailable(), "JFR not available");
        ThreadCounts counts = new ThreadCounts();
        ThreadFilter filter = new ThreadFilter(Optional.of(Pattern.compile("filter-.*")),
                Optional.of(Pattern.compile("filter-drop-\\d+")));
        JfrSampler sampler = new JfrSampler(10, 256, counts, new AgentCounters(), filter);
        Thread stream = new Thread(sampler::run, "test-jfr-stream");
        stream.setDaemon(true);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> workers = List.of(
                new Thread(() -> busyCaller(stop), "filter-keep-1"),
                new Thread(() -> busyCaller(stop), "filter-drop-1"),
                new Thread(() -> busyCaller(stop), "other-1"));
        try {
            stream.start();
            assertThat(sampler.awaitStarted(Duration.ofSeconds(20))).isTrue();
            workers.forEach(w -> {
                w.setDaemon(true);
                w.start();
            });
            // all three spin alike: once the kept thread has 30 samples, the others would have had
            // about as many each had they not been filtered out
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> counts.snapshot().getOrDefault("filter-keep-#", 0) >= 30);
        } finally {
            stop.set(true);
            sampler.close();
            stream.join(10_000);
            for (Thread w : workers) {
                w.join(10_000);
            }
        }
        Map<String, Integer> seen = counts.snapshot();
        assertThat(seen.getOrDefault("filter-keep-#", 0)).as("samples per thread: %s", seen)
                .isGreaterThanOrEqualTo(30);
        assertThat(seen).as("excluded and not included threads").doesNotContainKeys("filter-drop-#", "other-#");
    }

    private static void busyCaller(AtomicBoolean stop) {
        spinLine = new Throwable().getStackTrace()[0].getLineNumber() + 1;
        sink = spin(stop);
    }

    private static double spin(AtomicBoolean stop) {
        double s = 0;
        while (!stop.get()) {
            for (int i = 1; i < 10_000; i++) {
                s += Math.sqrt(i);
            }
        }
        return s;
    }

    @Test
    void recognisesTheAgentsOwnThreads() {
        assertThat(JfrSampler.isAgentThread("cctflow-flusher")).isTrue();
        assertThat(JfrSampler.isAgentThread("kafka-producer-network-thread | cctflow-agent")).isTrue();
        assertThat(JfrSampler.isAgentThread("pool-1-thread-1")).isFalse();
        assertThat(JfrSampler.isAgentThread("kafka-producer-network-thread | orders")).isFalse();
    }
}
