package io.cctflow.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcFsTest {
    @Test
    void readsThisProcesssCpuTimeAndCommandLine() {
        long pid = ProcessHandle.current().pid();
        long before = ProcFs.cpuNanos(pid);
        long spin = 0;
        for (long end = System.nanoTime() + 300_000_000L; System.nanoTime() < end; ) {
            spin++;
        }
        assertThat(spin).isPositive();
        assertThat(ProcFs.cpuNanos(pid)).isGreaterThan(before);
        assertThat(ProcFs.commandLine(pid)).contains("java");
    }

    @Test
    void splitsTheJvmsOwnThreadsByNamePrefix() throws Exception {
        // a thread of this JVM that uses 0.2 s of CPU, then waits alive: Linux knows it by its Java name
        java.util.concurrent.CountDownLatch spun = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch read = new java.util.concurrent.CountDownLatch(1);
        Thread waiting = new Thread(() -> {
            var threads = java.lang.management.ManagementFactory.getThreadMXBean();
            while (threads.getCurrentThreadCpuTime() < 200_000_000L) {
                Thread.onSpinWait();
            }
            spun.countDown();
            try {
                read.await(); // alive until the test has read /proc
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "spin-and-wait");
        waiting.setDaemon(true);
        waiting.start();
        spun.await();
        java.util.Map<String, Long> split;
        try {
            split = ProcFs.nativeThreadNanos(java.util.Map.of("spin-and-wait", "spinner", "no-such-thread", "none"));
        } finally {
            read.countDown();
        }
        assertThat(split).containsOnlyKeys("spinner");
        assertThat(split.get("spinner")).isGreaterThanOrEqualTo(150_000_000L); // /proc counts in 10 ms ticks
    }

    @Test
    void aProcessThatIsGoneHasNoFigures() {
        assertThat(ProcFs.cpuNanos(Long.MAX_VALUE)).isEqualTo(-1);
        assertThat(ProcFs.commandLine(Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void namesTheClustersProcessesByTheirMainClass() {
        assertThat(ClusterUnderTest.role("java -cp x io.cctflow.standalone.cluster.WatchedMain"
                + " org.apache.flink.runtime.taskexecutor.TaskManagerRunner --configDir c")).isEqualTo("taskmanager");
        assertThat(ClusterUnderTest.role("java -cp x WatchedMain"
                + " org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint")).isEqualTo("jobmanager");
        assertThat(ClusterUnderTest.role("java -Xmx384m -jar q/cctflow-query-service.jar --config f")).isEqualTo("query");
        assertThat(ClusterUnderTest.role("java -cp x WatchedMain io.cctflow.servers.internal.Neo4jServerMain h 7687"))
                .isEqualTo("neo4j");
        assertThat(ClusterUnderTest.role("java -cp x io.cctflow.servers.internal.KafkaBrokerMain node.properties"))
                .isEqualTo("kafka");
    }
}
