package io.cctflow.agent.manifest;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.time.Duration;

import io.cctflow.agent.AgentConfig;
import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.agent.transport.KafkaBatchSender;
import io.cctflow.agent.transport.SendQueue;
import io.cctflow.core.ExecutionId;
import io.cctflow.schema.CodeManifest;
import io.cctflow.schema.InstanceInfo;

/**
 * Code fingerprints from class loading to Kafka: a {@link ManifestCollector} whose manifests go,
 * encoded, to a sender that shares the sample batches' producer
 * ({@link KafkaBatchSender#sharingProducer}) and sends to {@code manifest.topic}, keyed by the
 * deployment ({@link ExecutionId#deploymentKey()}), from a queue bounded by {@code manifest.buffer}
 * in memory. With {@code spill.dir} set, what does not fit and what is unsent at exit goes to a
 * spill directory of its own (bounded by {@code spill.max}) and the next run of the same execution
 * sends it first; otherwise the oldest is dropped and counted as {@code manifestsDropped}.
 *
 * <p>Thread safety: {@link #start} and {@link #close} from one controlling thread.
 */
public final class ManifestPublisher {
    /** Name of the thread that sends manifests. */
    public static final String SENDER_THREAD_NAME = "cctflow-manifest-sender";
    /** Appended to the execution key for the manifests' spill directory, apart from the batches'. */
    static final String SPILL_KEY_SUFFIX = "\u001Fmanifests";

    private final ManifestCollector collector;
    private final KafkaBatchSender sender;

    private ManifestPublisher(ManifestCollector collector, KafkaBatchSender sender) {
        this.collector = collector;
        this.sender = sender;
    }

    /**
     * Starts observing classes and sending manifests.
     *
     * @param samples the sample batches' sender, whose producer is shared; close it after this
     */
    public static ManifestPublisher start(Instrumentation instrumentation, AgentConfig config,
            InstanceInfo instance, KafkaBatchSender samples) {
        RateLimitedLog log = RateLimitedLog.perMinute();
        AgentCounters sendCounters = new AgentCounters();
        ExecutionId execution = new ExecutionId(instance.getService(), instance.getVersion(),
                instance.getInstanceId());
        SendQueue queue = SendQueue.open(config.manifestBufferBytes(), config.spillDir(),
                execution.key() + SPILL_KEY_SUFFIX, config.spillMaxBytes(), "manifest(s)", sendCounters);
        KafkaBatchSender sender = samples.sharingProducer(config.manifestTopic(),
                execution.deploymentKey(), queue, sendCounters, SENDER_THREAD_NAME);
        ManifestCollector collector = new ManifestCollector(instrumentation,
                new ClassFilter(config.manifestExclude()), config.manifestBufferBytes(), instance,
                manifest -> send(sender, sendCounters, log, manifest),
                () -> sendCounters.snapshot().getBatchesDropped(), config.flushMillis(), System::nanoTime,
                log);
        sender.start();
        collector.start();
        return new ManifestPublisher(collector, sender);
    }

    private static void send(KafkaBatchSender sender, AgentCounters counters, RateLimitedLog log,
            CodeManifest manifest) {
        byte[] bytes;
        try {
            bytes = ManifestCollector.encode(manifest);
        } catch (IOException | RuntimeException e) {
            counters.batchDropped(0);
            log.warn("manifest " + manifest.getSequence() + " dropped: could not encode it", e);
            return;
        }
        sender.sendEncoded(manifest.getSequence(), bytes);
    }

    /**
     * Stops observing, publishes the classes fingerprinted so far and sends what the broker
     * takes, within {@code budget}; call before closing the shared producer. Idempotent.
     */
    public void close(Duration budget) {
        long deadline = System.nanoTime() + budget.toNanos();
        collector.close(budget.dividedBy(2));
        sender.close(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }
}
