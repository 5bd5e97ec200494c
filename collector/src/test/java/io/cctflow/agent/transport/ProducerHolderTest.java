package io.cctflow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ProducerHolderTest {
    private static MockProducer<String, byte[]> mockProducer() {
        return new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    }

    @Test
    void aFailedCreationIsRetriableNamesTheServersAndTheCauseAndIsTriedAgain() {
        MockProducer<String, byte[]> producer = mockProducer();
        AtomicInteger attempts = new AtomicInteger();
        ProducerHolder holder = new ProducerHolder(() -> {
            if (attempts.incrementAndGet() == 1) {
                throw new KafkaException("Failed to construct kafka producer",
                        new ConfigException("No resolvable bootstrap urls given in bootstrap.servers"));
            }
            return producer;
        }, "kafka.invalid:9092");

        assertThatThrownBy(holder::get).isInstanceOf(RetriableException.class)
                .hasMessage("cannot create the Kafka producer for kafka.invalid:9092: No resolvable bootstrap"
                        + " urls given in bootstrap.servers");
        assertThat(holder.get()).isSameAs(producer);
        assertThat(holder.get()).as("created once").isSameAs(producer);
        assertThat(attempts).hasValue(2);

        holder.close(Duration.ZERO);
        assertThat(producer.closed()).isTrue();
        assertThatThrownBy(holder::get).isInstanceOf(IllegalStateException.class);
    }

    /** A DNS lookup may take seconds: close must neither wait for it nor leak what it creates. */
    @Test
    void closeDuringACreationDoesNotWaitForItAndClosesWhatItCreates() throws Exception {
        MockProducer<String, byte[]> producer = mockProducer();
        CountDownLatch creating = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ProducerHolder holder = new ProducerHolder(() -> {
            creating.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return producer;
        }, "kafka:9092");
        CompletableFuture<Throwable> getter = CompletableFuture.supplyAsync(() -> {
            try {
                holder.get();
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        assertThat(creating.await(10, TimeUnit.SECONDS)).isTrue();

        holder.close(Duration.ZERO); // returns while the creation still runs
        assertThat(holder.isClosed()).isTrue();
        assertThat(getter).isNotDone();
        release.countDown();

        assertThat(getter.get(10, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
        assertThat(producer.closed()).as("created after close, closed at once").isTrue();
    }

    @Test
    void aGivenProducerIsReturnedAsItIs() {
        MockProducer<String, byte[]> producer = mockProducer();
        assertThat(ProducerHolder.of(producer).get()).isSameAs(producer);
    }
}
