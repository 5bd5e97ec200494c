package io.cctflow.agent;

import java.lang.instrument.Instrumentation;
import java.time.Duration;
import java.util.Properties;
import java.util.Random;

import org.apache.kafka.clients.producer.KafkaProducer;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.batch.BatchAggregator;
import io.cctflow.agent.batch.BatchFlusher;
import io.cctflow.agent.log.AgentLog;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.agent.manifest.ManifestPublisher;
import io.cctflow.agent.transport.KafkaBatchSender;
import io.cctflow.agent.transport.OrphanedSpills;
import io.cctflow.agent.transport.ProducerHolder;
import io.cctflow.agent.transport.SendQueue;
import io.cctflow.core.ExecutionId;

/**
 * The parts of the agent that talk to Kafka, started together once JFR records and closed together:
 * the producer with the batches' sender (thread {@value KafkaBatchSender#THREAD_NAME}), the flusher
 * that drains the aggregator into it every flush interval ({@value BatchFlusher#THREAD_NAME}), and
 * code fingerprints when {@code manifest=true} ({@link ManifestPublisher}, sharing the producer).
 *
 * <p>Thread safety: {@link #start} and {@link #close} from one controlling thread at a time.
 */
final class Publishing {
    private final KafkaBatchSender sender;
    private final BatchFlusher flusher;
    /** Null when {@code manifest=false}, without instrumentation, or when they failed to start. */
    private final ManifestPublisher manifests;

    private final OrphanedSpills orphans; // null without spill.dir

    private Publishing(KafkaBatchSender sender, BatchFlusher flusher, ManifestPublisher manifests,
            OrphanedSpills orphans) {
        this.orphans = orphans;
        this.sender = sender;
        this.flusher = flusher;
        this.manifests = manifests;
    }

    /**
     * Creates the producer and starts the sender, the flusher and code fingerprints. A producer
     * that cannot be created now (none of the bootstrap servers resolves) is reported and created
     * later by the sender thread ({@link ProducerHolder}); until then batches wait in the send
     * queue as they do while the broker is away.
     *
     * @param instrumentation for code fingerprints; may be null (none then)
     * @throws RuntimeException or Error when a step fails; the producer is closed then
     */
    static Publishing start(AgentConfig config, Instrumentation instrumentation,
            BatchAggregator aggregator, AgentCounters counters) {
        String recordKey = new ExecutionId(config.service(), config.version(), config.instance()).key();
        Properties settings = KafkaBatchSender.producerProperties(config.bootstrapServers());
        ProducerHolder producer = new ProducerHolder(() -> new KafkaProducer<>(settings),
                config.bootstrapServers());
        try {
            producer.get();
        } catch (ProducerHolder.Unavailable e) {
            AgentLog.warn(e.getMessage() + "; batches wait in the send queue (buffer "
                    + config.bufferBytes() + " bytes) and it is tried again with each send");
        }
        try {
            SendQueue queue = SendQueue.open(config.bufferBytes(), config.spillDir(), recordKey,
                    config.spillMaxBytes(), SendQueue.BATCHES, counters);
            KafkaBatchSender sender = new KafkaBatchSender(producer, config.topic(), recordKey, queue, counters,
                    new Random(), System::nanoTime, RateLimitedLog.perMinute());
            BatchFlusher flusher = new BatchFlusher(aggregator, sender, config.flushMillis(),
                    new Random(), System::currentTimeMillis);
            sender.start();
            flusher.start();
            return new Publishing(sender, flusher, startManifests(config, instrumentation, sender),
                    adoptOrphans(config, sender, queue));
        } catch (RuntimeException | Error e) {
            // no half-started agent: the producer's network thread would outlive it
            producer.close(Duration.ZERO);
            throw e;
        }
    }

    /**
     * Starts sending what dead predecessors left in the spill root ({@link OrphanedSpills}), when
     * spilling is on; a failure to start is logged, never thrown.
     */
    private static OrphanedSpills adoptOrphans(AgentConfig config, KafkaBatchSender sender, SendQueue queue) {
        if (queue.spillDirectory() == null) {
            return null;
        }
        try {
            return OrphanedSpills.start(sender, config.topic(), queue.spillDirectory(), config.service(),
                    config.bufferBytes(), config.spillMaxBytes());
        } catch (Throwable t) {
            AgentLog.warn("spill directories of earlier runs are not looked at: starting that failed", t);
            return null;
        }
    }

    /** Starts code fingerprints if configured; a failure disables them, not the agent. */
    private static ManifestPublisher startManifests(AgentConfig config, Instrumentation instrumentation,
            KafkaBatchSender sender) {
        if (!config.manifest() || instrumentation == null) {
            return null;
        }
        try {
            return ManifestPublisher.start(instrumentation, config, AgentRuntime.instanceInfo(config), sender);
        } catch (Throwable t) {
            AgentLog.warn("code fingerprints disabled: they failed to start", t);
            return null;
        }
    }

    /**
     * Publishes the classes fingerprinted so far, flushes the last window and closes the producer,
     * within {@code budget}. Call after sampling stopped. Idempotent.
     */
    void close(Duration budget) {
        long deadline = System.nanoTime() + budget.toNanos();
        if (orphans != null) {
            // before the samples' sender, which closes the producer the adopted batches go through
            orphans.close(remaining(deadline).dividedBy(4));
        }
        if (manifests != null) {
            // before the samples' sender, which closes the shared producer
            manifests.close(remaining(deadline).dividedBy(4));
        }
        // wait for a running flush for at most half of what is left; the final flush only queues
        // its batch
        flusher.shutdown(remaining(deadline).dividedBy(2));
        // sends what the broker takes, then spills or counts the rest
        sender.close(remaining(deadline));
    }

    private static Duration remaining(long deadlineNanos) {
        return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }
}
