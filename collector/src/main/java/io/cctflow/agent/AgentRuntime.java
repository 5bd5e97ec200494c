package io.cctflow.agent;

import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.producer.KafkaProducer;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.batch.BatchAggregator;
import io.cctflow.agent.batch.BatchFlusher;
import io.cctflow.agent.log.AgentLog;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.agent.sampling.JfrAvailability;
import io.cctflow.agent.manifest.ManifestPublisher;
import io.cctflow.agent.sampling.JfrSampler;
import io.cctflow.agent.transport.KafkaBatchSender;
import io.cctflow.agent.transport.SendQueue;
import io.cctflow.core.ExecutionId;
import io.cctflow.schema.InstanceInfo;

/**
 * Wires sampler, aggregator, flusher and sender together and stops them in order on JVM
 * shutdown: stop sampling, flush the last window, close the producer, all within
 * {@link #SHUTDOWN_BUDGET} so the agent never delays the host's exit by more.
 *
 * <p>Thread safety: {@link #run} is called once, on the agent's own daemon thread;
 * {@link #stop} is idempotent and may be called from any thread (the shutdown hook).
 */
final class AgentRuntime {
    /** The most the agent adds to the host's shutdown. */
    static final Duration SHUTDOWN_BUDGET = Duration.ofSeconds(2);

    private final AgentConfig config;
    private final JfrSampler sampler;
    private final BatchFlusher flusher;
    private final KafkaBatchSender sender;
    private final Instrumentation instrumentation;
    /** Null until started, and when {@code manifest=false}. */
    private volatile ManifestPublisher manifests;
    private final AtomicBoolean stopped = new AtomicBoolean();

    private AgentRuntime(AgentConfig config, JfrSampler sampler, BatchFlusher flusher,
            KafkaBatchSender sender, Instrumentation instrumentation) {
        this.config = config;
        this.instrumentation = instrumentation;
        this.sampler = sampler;
        this.flusher = flusher;
        this.sender = sender;
    }

    /** Starts the agent and runs the JFR stream on the calling thread until shutdown. Never throws. */
    static void run(String agentArgs, Instrumentation instrumentation) {
        try {
            AgentConfig config = AgentConfig.load(agentArgs);
            // checked before anything is created (no producer, no threads): without JFR the
            // agent does nothing at all, and says so once
            String unavailable = JfrAvailability.unavailableReason();
            if (unavailable != null) {
                JfrAvailability.reportUnavailable(unavailable);
                return;
            }
            AgentRuntime runtime = create(config, instrumentation);
            if (runtime != null) {
                runtime.sample();
            }
        } catch (Throwable t) {
            AgentLog.warn("agent stopped; the application runs without it", t);
        }
    }

    private static AgentRuntime create(AgentConfig config, Instrumentation instrumentation) {
        AgentCounters counters = new AgentCounters();
        String recordKey = new ExecutionId(config.service(), config.version(), config.instance()).key();
        KafkaProducer<String, byte[]> producer;
        try {
            producer = new KafkaProducer<>(KafkaBatchSender.producerProperties(config.bootstrapServers()));
        } catch (RuntimeException e) {
            AgentLog.warn("cannot create the Kafka producer for " + config.bootstrapServers()
                    + "; agent disabled", e);
            return null;
        }
        KafkaBatchSender sender = new KafkaBatchSender(producer, config.topic(), recordKey,
                SendQueue.open(config.bufferBytes(), config.spillDir(), recordKey, config.spillMaxBytes(),
                        "batch(es)", counters), counters, new Random(), System::nanoTime,
                RateLimitedLog.perMinute());
        BatchAggregator aggregator = new BatchAggregator(instanceInfo(config),
                config.periodMillis(), System.currentTimeMillis(), counters,
                BatchAggregator.DEFAULT_MAX_METHODS, BatchAggregator.DEFAULT_MAX_STACKS,
                config.stackDepth());
        JfrSampler sampler = new JfrSampler(config.periodMillis(), config.stackDepth(), aggregator,
                counters, config.threads());
        BatchFlusher flusher = new BatchFlusher(aggregator, sender, config.flushMillis(),
                new Random(), System::currentTimeMillis);
        return new AgentRuntime(config, sampler, flusher, sender, instrumentation);
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
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(SHUTDOWN_BUDGET),
                    "cctflow-shutdown"));
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: nothing worth starting
            stop(SHUTDOWN_BUDGET);
            return;
        }
        sender.start();
        flusher.start();
        startManifests();
        AgentLog.info("started: " + config);
        // blocks until stop() closes the stream, or JFR fails
        boolean sampled = sampler.run();
        if (!stopped.get()) {
            if (sampled) {
                // a stream that never started was already reported as JFR being unavailable
                AgentLog.warn("sampling ended before shutdown; agent disabled");
            }
            stop(SHUTDOWN_BUDGET);
        }
    }

    /** Starts code fingerprints if configured; a failure disables them, not the agent. */
    private void startManifests() {
        if (!config.manifest() || instrumentation == null) {
            return;
        }
        try {
            manifests = ManifestPublisher.start(instrumentation, config, instanceInfo(config), sender);
        } catch (Throwable t) {
            AgentLog.warn("code fingerprints disabled: they failed to start", t);
        }
    }

    /** Stops sampling, flushes the last window and closes the producer, within {@code budget}. */
    void stop(Duration budget) {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        long deadline = System.nanoTime() + budget.toNanos();
        try {
            sampler.close();
            ManifestPublisher m = manifests;
            if (m != null) {
                // before the samples' sender, which closes the shared producer
                m.close(remaining(deadline).dividedBy(4));
            }
            // wait for a running flush for at most half of what is left; the final flush only
            // queues its batch
            flusher.shutdown(remaining(deadline).dividedBy(2));
            // sends what the broker takes, then spills or counts the rest
            sender.close(remaining(deadline));
        } catch (Throwable t) {
            AgentLog.warn("agent shutdown failed", t);
        }
    }

    private static Duration remaining(long deadlineNanos) {
        return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }
}
