package io.cctflow.graph.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.Keys;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The maintenance schedule survives failing passes, on the real Neo4j (issue 30, item 6). */
class MaintenanceSchedulerTest extends CleanGraph {
    private static final Duration INTERVAL = Duration.ofMillis(100);

    @Test
    @Timeout(120)
    void aPassThatThrowsAnErrorLeavesTheSchedulerRunningAndTheNextPassSucceeds() {
        AtomicInteger started = new AtomicInteger();
        MaintenanceScheduler.PassHook failFirstTwo = now -> {
            int n = started.incrementAndGet();
            if (n == 1) {
                throw new StackOverflowError("injected by the test");
            }
            if (n == 2) {
                throw new IllegalStateException("injected by the test");
            }
        };
        try (MaintenanceScheduler scheduler = MaintenanceScheduler.start(driver, "", INTERVAL, Duration.ofMinutes(10),
                Rollups.DEFAULT_MINUTE_SETTLE,
                RetentionPolicy.DEFAULT, 100, Keys.DEFAULT_INSTANCE_GROUPS, failFirstTwo)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> scheduler.passes() >= 1);
            assertThat(scheduler.failures()).isEqualTo(2);
            assertThat(started.get()).isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    @Timeout(120)
    void closingDuringAPassIsNotCountedAsAFailure() throws InterruptedException {
        java.util.concurrent.CountDownLatch inPass = new java.util.concurrent.CountDownLatch(1);
        MaintenanceScheduler scheduler = MaintenanceScheduler.start(driver, "", INTERVAL, Duration.ofMinutes(10),
                Rollups.DEFAULT_MINUTE_SETTLE,
                RetentionPolicy.DEFAULT, 100, Keys.DEFAULT_INSTANCE_GROUPS, now -> {
                    inPass.countDown();
                    try {
                        new java.util.concurrent.CountDownLatch(1).await(); // until close() interrupts it
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted", e);
                    }
                });
        inPass.await();
        scheduler.close();
        assertThat(scheduler.failures()).isZero();
    }

    @Test
    void theLeaseOutlastsThreeIntervalsAndNeverLessThanFifteenMinutes() {
        assertThat(MaintenanceScheduler.leaseTtl(Duration.ofMinutes(1))).isEqualTo(Duration.ofMinutes(15));
        assertThat(MaintenanceScheduler.leaseTtl(Duration.ofMinutes(5))).isEqualTo(Duration.ofMinutes(15));
        assertThat(MaintenanceScheduler.leaseTtl(Duration.ofMinutes(10))).isEqualTo(Duration.ofMinutes(30));
    }
}
