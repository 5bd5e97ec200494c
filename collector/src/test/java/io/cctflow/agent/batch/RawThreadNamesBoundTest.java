package io.cctflow.agent.batch;

import static io.cctflow.agent.batch.Batches.m;
import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.ThreadNames;
import io.cctflow.schema.PoolThreads;
import io.cctflow.schema.SampleBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The raw thread names a batch keeps: per pool the first {@link BatchAggregator#MAX_RAW_NAMES_PER_POOL}
 * distinct names seen in the batch, of the first {@link BatchAggregator#MAX_RAW_NAME_POOLS} pools, on
 * random names, against a brute-force reference; every sample is recorded whatever the bound.
 */
class RawThreadNamesBoundTest {
    private static final MethodId[] FRAMES = {m("run"), m("work")};
    private static final int[] LINES = {0, 7};

    /** Brute force: per pool in first-seen order, its distinct raw names in first-seen order, bounded. */
    private static Map<String, List<String>> expected(List<String> rawNames) {
        Map<String, Set<String>> seen = new LinkedHashMap<>();
        for (String raw : rawNames) {
            String pool = ThreadNames.normalise(raw);
            if (seen.containsKey(pool) || seen.size() < BatchAggregator.MAX_RAW_NAME_POOLS) {
                seen.computeIfAbsent(pool, p -> new LinkedHashSet<>()).add(raw);
            }
        }
        Map<String, List<String>> out = new LinkedHashMap<>();
        seen.forEach((pool, names) -> out.put(pool,
                new ArrayList<>(names).subList(0, Math.min(names.size(), BatchAggregator.MAX_RAW_NAMES_PER_POOL))));
        return out;
    }

    private static Map<String, List<String>> kept(SampleBatch batch) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (PoolThreads p : batch.getRawThreadNames()) {
            assertThat(out).as("pool %s listed once", p.getPool()).doesNotContainKey(p.getPool());
            out.put(p.getPool(), p.getRaw());
        }
        return out;
    }

    @Test
    void keepsTheFirstNamesOfEachPoolWithinTheBounds() throws Exception {
        Random random = new Random(32);
        for (int round = 0; round < 200; round++) {
            AgentCounters counters = new AgentCounters();
            BatchAggregator aggregator = new BatchAggregator(Batches.instance(), 20, 1_000, counters);
            // many pools in some rounds, to reach the pool bound; many threads per pool in others
            int pools = random.nextBoolean() ? 1 + random.nextInt(20) : BatchAggregator.MAX_RAW_NAME_POOLS + 50;
            int threadsPerPool = 1 + random.nextInt(3 * BatchAggregator.MAX_RAW_NAMES_PER_POOL);
            int samples = 1 + random.nextInt(3_000);
            List<String> rawNames = new ArrayList<>();
            for (int s = 0; s < samples; s++) {
                // digits are normalised away: pools differ by letters, their threads by numbers
                String raw = "pool-" + letters(random.nextInt(pools)) + "-" + random.nextInt(3) + "-thread-"
                        + random.nextInt(threadsPerPool);
                rawNames.add(raw);
                aggregator.record(FRAMES, LINES, 2, ThreadNames.normalise(raw), raw, false);
            }
            SampleBatch batch = aggregator.drain(2_000);
            // through the wire format, as the job sees it
            SampleBatch decoded = SampleBatch.fromByteBuffer(batch.toByteBuffer());

            Map<String, List<String>> kept = kept(decoded);
            Map<String, List<String>> expected = expected(rawNames);
            assertThat(kept.keySet()).as("pools, round %d", round).containsExactlyInAnyOrderElementsOf(expected.keySet());
            for (Map.Entry<String, List<String>> e : expected.entrySet()) {
                assertThat(kept.get(e.getKey())).as("pool %s, round %d", e.getKey(), round)
                        .hasSizeLessThanOrEqualTo(BatchAggregator.MAX_RAW_NAMES_PER_POOL)
                        .containsExactlyElementsOf(e.getValue());
            }
            assertThat(kept).hasSizeLessThanOrEqualTo(BatchAggregator.MAX_RAW_NAME_POOLS);
            assertThat(decoded.getStacks().stream().mapToLong(s -> s.getCount()).sum())
                    .as("every sample recorded").isEqualTo(samples);
        }
    }

    /** {@code n} in letters: a, b, ..., z, ba, bb, ... */
    private static String letters(int n) {
        StringBuilder sb = new StringBuilder();
        do {
            sb.insert(0, (char) ('a' + n % 26));
            n /= 26;
        } while (n > 0);
        return sb.toString();
    }

    @Test
    void startsAfreshWithEveryBatchAndKeepsNoneWithoutRawNames() {
        BatchAggregator aggregator = new BatchAggregator(Batches.instance(), 20, 1_000, new AgentCounters());
        aggregator.record(FRAMES, LINES, 2, "pool-#-thread-#", "pool-1-thread-1", false);
        assertThat(kept(aggregator.drain(2_000))).containsExactly(Map.entry("pool-#-thread-#", List.of("pool-1-thread-1")));

        aggregator.record(FRAMES, LINES, 2, "pool-#-thread-#", "pool-1-thread-2", false);
        assertThat(kept(aggregator.drain(3_000))).containsExactly(Map.entry("pool-#-thread-#", List.of("pool-1-thread-2")));

        // a recorder call without a raw name (importers of collapsed stacks): nothing kept
        aggregator.record(FRAMES, LINES, 2, "pool-#-thread-#", false);
        assertThat(aggregator.drain(4_000).getRawThreadNames()).isEmpty();
    }
}
