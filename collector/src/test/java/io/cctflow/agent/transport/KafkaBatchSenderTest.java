package io.cctflow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.core.ExecutionId;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.schema.AgentStats;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;

class KafkaBatchSenderTest {
    private static final String KEY = new ExecutionId("shop", "v1", "host-1").key();

    private final AgentCounters counters = new AgentCounters();
    private final RateLimitedLog log = new RateLimitedLog(1, TimeUnit.MINUTES, System::nanoTime);

    private static SampleBatch batch() {
        return SampleBatch.newBuilder()
                .setInstance(InstanceInfo.newBuilder().setService("shop").setVersion("v1")
                        .setInstanceId("host-1").setHost("host").setPid(1).setStartTimeMillis(0)
                        .build())
                .setWindowStartMillis(0)
                .setWindowEndMillis(10)
                .setSequence(3)
                .setSamplingPeriodMillis(20)
                .setMethods(List.of(new MethodRef("a.B", "c", "()V")))
                .setStacks(List.of(new Stack(List.of(0), List.of(0), "main", false, 1L)))
                .setStats(new AgentStats(1L, 0L, 0L, 0L, 0L, 0L))
                .build();
    }

    private static MockProducer<String, byte[]> producer(boolean autoComplete) {
        return new MockProducer<>(autoComplete, null, new StringSerializer(), new ByteArraySerializer());
    }

    @Test
    void sendsTheSingleObjectEncodedBatchKeyedByExecution() throws Exception {
        MockProducer<String, byte[]> producer = producer(true);
        KafkaBatchSender sender = new KafkaBatchSender(producer, "cctflow.samples", KEY, counters, log);

        sender.send(batch());

        ProducerRecord<String, byte[]> record = producer.history().get(0);
        assertThat(record.topic()).isEqualTo("cctflow.samples");
        assertThat(record.key()).isEqualTo(KEY);
        assertThat(SampleBatch.fromByteBuffer(ByteBuffer.wrap(record.value()))).isEqualTo(batch());
        assertThat(counters.snapshot().getBatchesSent()).isEqualTo(1);
        assertThat(counters.snapshot().getBytesSent()).isEqualTo(record.value().length);
        assertThat(counters.snapshot().getBatchesDropped()).isZero();
    }

    @Test
    void failedDeliveryIsCountedAsDroppedAndNotThrown() {
        MockProducer<String, byte[]> producer = producer(false);
        KafkaBatchSender sender = new KafkaBatchSender(producer, "t", KEY, counters, log);

        sender.send(batch());
        producer.errorNext(new TimeoutException("broker away"));

        assertThat(counters.snapshot().getBatchesDropped()).isEqualTo(1);
        assertThat(counters.snapshot().getBatchesSent()).isZero();
    }

    @Test
    void sendAfterCloseIsCountedAsDroppedAndNotThrown() {
        MockProducer<String, byte[]> producer = producer(true);
        KafkaBatchSender sender = new KafkaBatchSender(producer, "t", KEY, counters, log);
        sender.close();

        sender.send(batch());

        assertThat(counters.snapshot().getBatchesDropped()).isEqualTo(1);
    }

    @Test
    void producerSettingsNeverBlockLongAndPassSerializersAsClasses() {
        Properties p = KafkaBatchSender.producerProperties("k:9092");

        assertThat(p).contains(
                Map.entry("bootstrap.servers", "k:9092"),
                Map.entry("client.id", "cctflow-agent"),
                Map.entry("enable.idempotence", true),
                Map.entry("acks", "all"),
                Map.entry("compression.type", "gzip"),
                Map.entry("max.block.ms", 100),
                Map.entry("buffer.memory", 16L << 20),
                Map.entry("linger.ms", 100),
                Map.entry("key.serializer", StringSerializer.class),
                Map.entry("value.serializer", ByteArraySerializer.class));
    }
}
