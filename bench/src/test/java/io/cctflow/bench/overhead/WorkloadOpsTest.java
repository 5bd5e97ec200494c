package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WorkloadOpsTest {

    @Test
    void everyOperationGivesTheSameResultInEveryInstance() {
        WorkloadOps a = new WorkloadOps();
        WorkloadOps b = new WorkloadOps();
        for (long i = 0; i < 60; i++) {
            assertThat(a.run(i)).as("operation %d", i).isEqualTo(b.run(i));
        }
    }

    @Test
    void fibonacciIsTheTextbookOne() {
        assertThat(WorkloadOps.fibonacci(20)).isEqualTo(6765);
        assertThat(WorkloadOps.fibonacci(21)).isEqualTo(10946);
    }
}
