package io.cctflow.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuSharesTest {
    @Test
    void theGeneratorsThreadsAreItsOwnRoleWhateverElseTheirNamesMatch() {
        assertThat(CpuShares.role(FleetLoad.THREAD_NAME)).isEqualTo(CpuShares.GENERATOR);
        // its producer's network thread, named after the client.id the benchmark gives it
        assertThat(CpuShares.role("kafka-producer-network-thread | " + FleetLoad.THREAD_NAME))
                .isEqualTo(CpuShares.GENERATOR);
        assertThat(CpuShares.role("kafka-producer-network-thread | producer-1")).isEqualTo("Kafka producers (the job's)");
        assertThat(CpuShares.role("merge-into-cct (1/2)#0")).startsWith("job: merge operator");
    }

    @Test
    void thePipelinesFigureIsAllLessTheGenerator() {
        CpuShares start = new CpuShares(1_000_000, 500_000, Map.of(CpuShares.GENERATOR, 100_000L));
        // 1,000 samples: this JVM 9 ms (generator 2 ms of it), the broker 3 ms
        CpuShares end = new CpuShares(10_000_000, 3_500_000, Map.of(CpuShares.GENERATOR, 2_100_000L));
        assertThat(end.perSampleSince(start, 1_000)).startsWith(
                "CPU-µs per committed sample: all 12.0 (benchmark JVM 9.0, broker JVM 3.0); the pipeline 10.0 (all less the generator)");
    }
}
