package io.cctflow.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.flink.ingest.BatchDecoder;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EncodedFleetBatchesTest {
    private final StackCorpus corpus = StackCorpus.load();

    /**
     * Each encoded batch is what the job accepts (it passes the job's own decoder and validation),
     * with the head it was given and a body from the pool, the same body as a batch built whole.
     */
    @Test
    void encodedBatchesDecodeToValidBatchesWithTheirOwnHead() throws Exception {
        FleetBatches drawn = new FleetBatches(corpus, 2, 20, 10_000, new Random(3));
        EncodedFleetBatches batches = new EncodedFleetBatches(drawn, 4, new Random(3));
        FleetBatches reference = new FleetBatches(corpus, 2, 20, 10_000, new Random(3));
        Set<String> pool = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            SampleBatch b = reference.next(FleetBatches.instance("x", 0, 0), 0, 0, 0);
            pool.add(b.getMethods() + " " + b.getStacks());
        }
        Set<String> seen = new HashSet<>();

        for (int k = 0; k < 40; k++) {
            InstanceInfo instance = FleetBatches.instance("fleet", k % 7, 1_234);
            byte[] bytes = batches.encode(instance, 100 + k, 5_000L * k, 5_000L * k + 10_000);

            SampleBatch b = BatchDecoder.decode(new RawRecord("samples", 0, k, null, bytes));
            assertThat(b.getInstance()).isEqualTo(instance);
            assertThat(b.getSequence()).isEqualTo(100 + k);
            assertThat(b.getWindowStartMillis()).isEqualTo(5_000L * k);
            assertThat(b.getWindowEndMillis()).isEqualTo(5_000L * k + 10_000);
            assertThat(b.getSamplingPeriodMillis()).isEqualTo(20);
            assertThat(b.getStats()).isNull();
            assertThat(b.getStacks().stream().mapToLong(Stack::getCount).sum()).isEqualTo(batches.samplesPerBatch())
                    .isEqualTo(1_000);
            String body = b.getMethods() + " " + b.getStacks();
            assertThat(pool).as("body is one of the pool's batches").contains(body);
            seen.add(body);
        }
        assertThat(seen).as("bodies drawn from the whole pool").hasSize(4);
    }
}
