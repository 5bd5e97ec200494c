package io.cctflow.agent.sampling;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.batch.SampleRecorder;
import io.cctflow.agent.log.AgentLog;
import io.cctflow.agent.log.RateLimitedLog;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

/**
 * Streams {@code jdk.ExecutionSample} events from JFR in this JVM and hands each stack, root
 * first with call-site lines, to a {@link SampleRecorder} (the conversion is
 * {@link ExecutionSamples}, shared with the {@code .jfr} importer). Samples of the agent's own
 * threads are left out.
 *
 * <p>Threading: {@link #run()} blocks and must be called on a dedicated daemon thread; events are
 * handled on that thread. We never use {@code startAsync()}: it starts a non-daemon thread that
 * keeps the host JVM from exiting. {@link #close()} may be called from any thread, any number of
 * times, also before {@code run()}.
 */
public final class JfrSampler implements AutoCloseable {
    /** The JFR event this sampler consumes. */
    public static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";

    // bound the JFR repository on disk: without a limit a continuous recording grows forever;
    // the stream reads within about a second, so minutes of retention are plenty
    private static final Duration MAX_AGE = Duration.ofMinutes(2);
    private static final long MAX_SIZE_BYTES = 32L << 20;

    private final int periodMillis;
    private final int stackDepth;
    private final SampleRecorder recorder;
    private final AgentCounters counters;
    private final CountDownLatch started = new CountDownLatch(1);
    private final RateLimitedLog eventFailures = RateLimitedLog.perMinute();

    // confined to the stream thread
    private final ExecutionSamples samples;
    // set once the stream delivered its metadata, i.e. JFR really records
    private volatile boolean streaming;

    private final Object lifecycle = new Object();
    // guarded by lifecycle
    private RecordingStream stream;
    private boolean closed;

    /**
     * @param periodMillis sampling period per thread
     * @param stackDepth the stack depth to ask JFR for before it starts
     * @param recorder receives the samples, on the stream's thread
     * @param counters where unreadable events are counted
     */
    public JfrSampler(int periodMillis, int stackDepth, SampleRecorder recorder,
            AgentCounters counters) {
        this(periodMillis, stackDepth, recorder, counters, ThreadFilter.ALL);
    }

    /**
     * As above, sampling only the threads {@code threads} accepts.
     */
    public JfrSampler(int periodMillis, int stackDepth, SampleRecorder recorder,
            AgentCounters counters, ThreadFilter threads) {
        this.samples = new ExecutionSamples(true, threads);
        this.periodMillis = periodMillis;
        this.stackDepth = stackDepth;
        this.recorder = recorder;
        this.counters = counters;
    }

    /** Whether this JVM has a usable Flight Recorder; logs why not ({@link JfrAvailability}). */
    public static boolean isJfrAvailable() {
        String reason = JfrAvailability.unavailableReason();
        if (reason == null) {
            return true;
        }
        JfrAvailability.reportUnavailable(reason);
        return false;
    }

    /** {@link #run(Runnable)} with nothing to do once sampling began. */
    public boolean run() {
        return run(() -> { });
    }

    /**
     * Starts sampling and handles events until {@link #close()}. Returns normally when closed;
     * any failure is logged, never thrown. A failure before JFR delivered anything (the recording
     * could not be created or started) is reported as JFR not being available.
     *
     * @param onStarted runs once, on this thread, when JFR delivered its first metadata: the
     *     recording really runs. Events wait in JFR's repository while it runs. An exception from
     *     it is logged and sampling goes on.
     * @return whether sampling had begun (JFR delivered its metadata) before it ended
     */
    public boolean run(Runnable onStarted) {
        try {
            if (isClosed()) {
                return false;
            }
            JfrStackDepth.request(stackDepth);
            RecordingStream rs = new RecordingStream();
            synchronized (lifecycle) {
                if (closed) {
                    rs.close();
                    return false;
                }
                stream = rs;
            }
            rs.setMaxAge(MAX_AGE);
            rs.setMaxSize(MAX_SIZE_BYTES);
            // samples are counted per flush interval, never by their time within it: no need for
            // JFR to collect and sort each second's events before handing them over
            rs.setOrdered(false);
            rs.enable(EXECUTION_SAMPLE).withPeriod(Duration.ofMillis(periodMillis));
            rs.onEvent(EXECUTION_SAMPLE, this::onExecutionSample);
            rs.onMetadata(metadata -> {
                // JFR calls this again with each new chunk's metadata
                if (!streaming) {
                    streaming = true;
                    begin(onStarted);
                }
            });
            rs.start();
        } catch (Throwable t) {
            // close() from another thread can make start() fail; that is not worth a warning
            if (isClosed()) {
                return streaming;
            }
            if (streaming) {
                AgentLog.warn("JFR sampling stopped", t);
            } else {
                JfrAvailability.reportUnavailable("could not start a recording: "
                        + AgentLog.describe(t));
            }
        } finally {
            started.countDown();
            close();
        }
        return streaming;
    }

    private void begin(Runnable onStarted) {
        try {
            onStarted.run();
        } catch (Throwable t) {
            // an exception would end the stream
            AgentLog.warn("start-up after JFR began failed", t);
        } finally {
            started.countDown();
        }
    }

    /** Waits until the stream has started (or stopped). For tests and start-up logging. */
    public boolean awaitStarted(Duration timeout) throws InterruptedException {
        return started.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the stream; {@link #run()} then returns. Idempotent, any thread. */
    @Override
    public void close() {
        RecordingStream rs;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            rs = stream;
        }
        if (rs != null) {
            try {
                rs.close();
            } catch (Throwable t) {
                AgentLog.warn("closing the JFR stream failed", t);
            }
        }
    }

    private boolean isClosed() {
        synchronized (lifecycle) {
            return closed;
        }
    }

    /** One event; never throws, because an exception would end the whole stream. */
    private void onExecutionSample(RecordedEvent event) {
        try {
            if (samples.read(event, recorder) == ExecutionSamples.Outcome.NO_STACK) {
                counters.sampleUnreadable();
            }
        } catch (RuntimeException e) {
            counters.sampleUnreadable();
            eventFailures.warn("could not read a " + EXECUTION_SAMPLE + " event", e);
        }
    }

    /** See {@link ExecutionSamples#isAgentThread}. */
    static boolean isAgentThread(String rawName) {
        return ExecutionSamples.isAgentThread(rawName);
    }
}
