package io.cctflow.agent.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ClassQueueTest {
    private static ObservedClass observed(String name, int size) {
        return new ObservedClass(name, new byte[size], null);
    }

    /** Without the wake-up the waiting poll would hold the test for an hour (its timeout fails it). */
    @Test
    @Timeout(60)
    void wakeEndsAWaitingPoll() throws Exception {
        ClassQueue q = new ClassQueue(1 << 20);
        CompletableFuture<ObservedClass> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return q.poll(1, TimeUnit.HOURS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        q.wake();

        assertThat(waiting.get()).isNull();
    }

    @Test
    @Timeout(60)
    void aWakeUpNeverHidesOrReordersQueuedClasses() throws Exception {
        ClassQueue q = new ClassQueue(1 << 20);
        ObservedClass a = observed("a/A", 10);
        ObservedClass b = observed("b/B", 20);
        q.offer(a);
        q.wake();
        q.offer(b);

        assertThat(q.poll(1, TimeUnit.HOURS)).isSameAs(a);
        assertThat(q.poll(1, TimeUnit.HOURS)).isSameAs(b);
        assertThat(q.poll(0, TimeUnit.NANOSECONDS)).isNull();
        assertThat(q.bytes()).isZero();
    }

    @Test
    void refusesAClassThatWouldExceedTheByteBound() throws Exception {
        ClassQueue q = new ClassQueue(25);
        assertThat(q.offer(observed("a/A", 10))).isTrue();
        assertThat(q.offer(observed("b/B", 20))).isFalse();
        assertThat(q.bytes()).isEqualTo(10);
        q.wake();
        assertThat(q.bytes()).isEqualTo(10);
    }
}
