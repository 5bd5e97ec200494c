package io.cctflow.standalone.cluster;

import io.cctflow.model.Resolution;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A fixed, pre-generated input: SampleBatches of a few instances over consecutive minutes, from a
 * seed, with the expectation the pipeline must store, computed here from the batches alone: the
 * samples of each (instance, one-minute window).
 */
final class FixedBatches {
    static final String SERVICE = "fixed";
    /**
     * The first batch's start: the start of the hour before the test's (a minute boundary). Recent
     * on purpose: the cluster's query services run the roll-up and retention pass every minute,
     * which deletes fine windows older than {@code retention.fine} (14 d) once rolled up.
     */
    static final long T0 = Resolution.HOUR.floor(System.currentTimeMillis()) - Resolution.HOUR.millis();
    final List<SampleBatch> batches = new ArrayList<>();
    /** Samples of each batch, by the batch's index. */
    private final List<Long> samplesOf = new ArrayList<>();

    FixedBatches(long seed, int instances, int batchesPerInstance) {
        Random random = new Random(seed);
        for (int b = 0; b < batchesPerInstance; b++) {
            for (int i = 0; i < instances; i++) {
                String instance = "i" + i;
                long start = T0 + b * 10_000L; // a batch per 10 s, six per minute
                List<MethodRef> methods = new ArrayList<>();
                for (int m = 0; m < 12; m++) {
                    methods.add(new MethodRef("fixed.C" + (m % 3), "m" + m, "()V"));
                }
                List<Stack> stacks = new ArrayList<>();
                long samples = 0;
                for (int s = 0; s < 5 + random.nextInt(10); s++) {
                    List<Integer> frames = new ArrayList<>();
                    List<Integer> lines = new ArrayList<>();
                    for (int d = 0; d < 1 + random.nextInt(7); d++) {
                        frames.add(random.nextInt(methods.size()));
                        lines.add(d == 0 ? 0 : 1 + random.nextInt(2));
                    }
                    long count = 1 + random.nextInt(9);
                    samples += count;
                    stacks.add(new Stack(frames, lines, "worker-#", false, count));
                }
                InstanceInfo info = new InstanceInfo(SERVICE, "v1", instance, "host", 7L, T0 - 60_000, Map.of());
                batches.add(new SampleBatch(info, start, start + 10_000, (long) b, 20, methods, stacks, null, List.of()));
                samplesOf.add(samples);
            }
        }
    }

    /**
     * What a failure-free run stores once batches {@code [0, to)} are in: the samples of each
     * (instance, one-minute window), keyed "instance@windowStart", summed from the batches alone.
     */
    Map<String, Long> expectedUpTo(int to) {
        Map<String, Long> expected = new TreeMap<>();
        for (int i = 0; i < to; i++) {
            SampleBatch batch = batches.get(i);
            long start = batch.getWindowStartMillis();
            expected.merge(batch.getInstance().getInstanceId() + "@" + (start - start % 60_000), samplesOf.get(i),
                    Long::sum);
        }
        return expected;
    }

    /** Sends batches {@code [from, to)} to the samples topic, keyed by execution as the agent does; waits for every ack. */
    void send(String bootstrapServers, String topic, int from, int to) {
        Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (SampleBatch batch : batches.subList(from, to)) {
                String key = new io.cctflow.core.ExecutionId(SERVICE, "v1", batch.getInstance().getInstanceId()).key();
                producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), encode(batch)));
            }
            producer.flush();
        }
    }

    private static byte[] encode(SampleBatch batch) {
        try {
            ByteBuffer b = batch.toByteBuffer();
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
