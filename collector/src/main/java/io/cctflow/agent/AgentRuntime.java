package io.cctflow.agent;

import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.time.Duration;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.batch.BatchAggregator;
import io.cctflow.agent.log.AgentLog;
import io.cctflow.agent.sampling.JfrAvailability;
import io.cctflow.agent.sampling.JfrSampler;
import io.cctflow.schema.InstanceInfo;
import jdk.jfr.FlightRecorder;

/**
 * Runs the agent: samples with JFR and, only once JFR really records, starts the parts that talk
 * to Kafka ({@link Publishing}: producer, sender, flusher, code fingerprints), registers the
 * shutdown hook and logs {@code started}. A JVM whose recording cannot start thus creates no
 * producer and no thread and publishes nothing, not even code fingerprints: JFR's failure is
 * reported as one line ({@link JfrAvailability}) and that is all. On JVM shutdown it stops in
 * order: stop sampling, flush the last window, close the producer, all within
 * {@link #SHUTDOWN_BUDGET} so the agent never delays the host's exit by more.
 *
 * <p>Thread safety: {@link #run} is called once, on the agent's own daemon thread, which then
 * runs the JFR stream (and, from its first metadata, starts publishing); {@link #stop} is
 * idempotent and may be called from any thread (the shutdown hook).
 */
final class AgentRuntime {
    /** The most the agent adds to the host's shutdown. */
    static final Duration SHUTDOWN_BUDGET = Duration.ofSeconds(2);
    /**
     * Said when the agent starts JFR in a running JVM: JFR's start redefines JDK classes, and a JVM
     * that did not hold the capability to redefine classes from its start (the manifest's
     * {@code Can-Retransform-Classes} gives it to a {@code -javaagent}) then throws away all of its
     * compiled code.
     */
    private static final String RECOMPILES_ONCE = "attached to a JVM where JFR was not running: starting JFR"
            + " redefines some JDK classes, which makes this JVM recompile all of its code once (to avoid"
            + " it, attach to JVMs started with -XX:StartFlightRecording, or use -javaagent)";

    private final AgentConfig config;
    private final Instrumentation instrumentation;
    private final AgentCounters counters;
    private final BatchAggregator aggregator;
    private final JfrSampler sampler;

    private final Object lifecycle = new Object();
    // guarded by lifecycle
    private boolean stopped;
    /** Null until JFR records. Guarded by lifecycle. */
    private Publishing publishing;

    /** Creates what sampling needs; no thread, no producer, no I/O. */
    private AgentRuntime(AgentConfig config, Instrumentation instrumentation) {
        this.config = config;
        this.instrumentation = instrumentation;
        this.counters = new AgentCounters();
        this.aggregator = new BatchAggregator(instanceInfo(config),
                config.periodMillis(), System.currentTimeMillis(), counters,
                BatchAggregator.DEFAULT_MAX_METHODS, BatchAggregator.DEFAULT_MAX_STACKS,
                config.stackDepth());
        this.sampler = new JfrSampler(config.periodMillis(), config.stackDepth(), aggregator,
                counters, config.threads());
    }

    /**
     * Starts the agent and runs the JFR stream on the calling thread until shutdown. Never throws.
     *
     * @param attached whether the agent was attached to a running JVM, not started with it
     */
    static void run(String agentArgs, Instrumentation instrumentation, boolean attached) {
        try {
            AgentConfig config = AgentConfig.load(agentArgs);
            // checked before anything is created (no producer, no threads): without JFR the
            // agent does nothing at all, and says so once
            String unavailable = JfrAvailability.unavailableReason();
            if (unavailable != null) {
                JfrAvailability.reportUnavailable(unavailable);
                return;
            }
            if (attached && !FlightRecorder.isInitialized()) {
                AgentLog.info(RECOMPILES_ONCE);
            }
            new AgentRuntime(config, instrumentation).sample();
        } catch (Throwable t) {
            AgentLog.warn("agent stopped; the application runs without it", t);
        }
    }

    static InstanceInfo instanceInfo(AgentConfig config) {
        return InstanceInfo.newBuilder()
                .setService(config.service())
                .setVersion(config.version())
                .setInstanceId(config.instance())
                .setHost(LocalHost.name())
                .setPid(ProcessHandle.current().pid())
                .setStartTimeMillis(ManagementFactory.getRuntimeMXBean().getStartTime())
                .setLabels(config.labels())
                .build();
    }

    private void sample() {
        // blocks until stop() closes the stream, or JFR fails; a recording that cannot start is
        // reported by the sampler as JFR being unavailable, and nothing else was started
        boolean sampled = sampler.run(this::startPublishing);
        if (!isStopped()) {
            if (sampled) {
                AgentLog.warn("sampling ended before shutdown; agent disabled");
            }
            stop(SHUTDOWN_BUDGET);
        }
    }

    /**
     * Called once JFR delivered its first metadata, i.e. the recording runs: starts publishing,
     * registers the shutdown hook and logs {@code started}. On the stream's thread; never throws.
     */
    private void startPublishing() {
        Duration stopWithin;
        try {
            synchronized (lifecycle) {
                if (stopped) {
                    return;
                }
                publishing = Publishing.start(config, instrumentation, aggregator, counters);
                try {
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(SHUTDOWN_BUDGET),
                            "cctflow-shutdown"));
                    AgentLog.info("started: " + config);
                    return;
                } catch (IllegalStateException e) {
                    // the JVM is already shutting down: flush what there is and stop
                    stopWithin = SHUTDOWN_BUDGET;
                }
            }
        } catch (Throwable t) {
            AgentLog.warn("agent stopped; the application runs without it", t);
            stopWithin = SHUTDOWN_BUDGET;
        }
        stop(stopWithin);
    }

    private boolean isStopped() {
        synchronized (lifecycle) {
            return stopped;
        }
    }

    /**
     * Stops sampling and, if publishing had started, flushes the last window and closes the
     * producer, within {@code budget}. Idempotent, any thread.
     */
    void stop(Duration budget) {
        long deadline = System.nanoTime() + budget.toNanos();
        Publishing started;
        synchronized (lifecycle) {
            if (stopped) {
                return;
            }
            stopped = true;
            started = publishing;
        }
        try {
            sampler.close();
            if (started != null) {
                started.close(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            }
        } catch (Throwable t) {
            AgentLog.warn("agent shutdown failed", t);
        }
    }
}
