package io.cctflow.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SideReplicatesTest {
    private static final long WINDOW = 60_000;

    /** One stored window of {@code instance} in time slot {@code slot}, with {@code samples} samples. */
    private static WindowCounts window(String instance, int slot, long samples) {
        Cct tree = new Cct();
        tree.addStack(new long[] {1, 2 + slot % 3}, new int[] {0, 0}, 2, samples);
        return new WindowCounts(instance, slot * WINDOW, (slot + 1) * WINDOW, TreeCounts.of(tree));
    }

    private static long samples(List<MethodSamples> replicates) {
        return replicates.stream().mapToLong(MethodSamples::samples).sum();
    }

    @Test
    void instancesOnOneSideAndWindowsOnTheOtherUseWindowsOnBoth() {
        // a: two instances, two slots each; b: one instance over three slots
        SideReplicates a = SideReplicates.of(List.of(window("i1", 0, 10), window("i2", 0, 20), window("i1", 1, 30),
                window("i2", 1, 40)));
        SideReplicates b = SideReplicates.of(List.of(window("j1", 0, 5), window("j1", 1, 6), window("j1", 2, 7)));
        SideReplicates.Pair pair = SideReplicates.pair(a, b);
        assertThat(pair.unit()).isEqualTo(SideReplicates.WINDOWS);
        assertThat(pair.a()).extracting(MethodSamples::samples).containsExactly(30L, 70L);
        assertThat(pair.b()).extracting(MethodSamples::samples).containsExactly(5L, 6L, 7L);
    }

    @Test
    void instancesOnBothSidesUseInstances() {
        SideReplicates a = SideReplicates.of(List.of(window("i1", 0, 10), window("i2", 0, 20), window("i1", 1, 30)));
        SideReplicates b = SideReplicates.of(List.of(window("j1", 0, 5), window("j2", 0, 6), window("j3", 0, 7)));
        SideReplicates.Pair pair = SideReplicates.pair(a, b);
        assertThat(pair.unit()).isEqualTo(SideReplicates.INSTANCES);
        assertThat(pair.a()).extracting(MethodSamples::samples).containsExactly(40L, 20L);
        assertThat(pair.b()).hasSize(3);
    }

    @Test
    void noUnitWithTwoOnEachSideWithholdsAndSaysWhatEachSideOffered() {
        // a: two instances in one slot; b: one instance over two slots
        SideReplicates a = SideReplicates.of(List.of(window("i1", 0, 10), window("i2", 0, 20)));
        SideReplicates b = SideReplicates.of(List.of(window("j1", 0, 5), window("j1", 1, 6)));
        SideReplicates.Pair pair = SideReplicates.pair(a, b);
        assertThat(pair.unit()).isEqualTo(SideReplicates.NONE);
        assertThat(pair.a()).extracting(MethodSamples::samples).containsExactly(30L);
        assertThat(pair.b()).extracting(MethodSamples::samples).containsExactly(11L);
        assertThat(pair.offered()).isEqualTo("a: 2 instances, 1 window, b: 1 instance, 2 windows");
        SideReplicates single = SideReplicates.of(List.of(window("k", 3, 9)));
        assertThat(SideReplicates.pair(single, b).offered()).startsWith("a: one window of one instance");
    }

    @Test
    void theUnitIsTheRuleOnRandomSidesAndKeepsEverySample() {
        Random random = new Random(29);
        for (int t = 0; t < 500; t++) {
            List<List<WindowCounts>> sides = new ArrayList<>();
            int[][] counts = new int[2][2];
            for (int s = 0; s < 2; s++) {
                List<WindowCounts> w = new ArrayList<>();
                Set<String> instances = new HashSet<>();
                Set<Integer> slots = new HashSet<>();
                for (int k = 0; k < 1 + random.nextInt(5); k++) {
                    String instance = "i" + random.nextInt(3);
                    int slot = random.nextInt(3);
                    if (instances.contains(instance) && slots.contains(slot)) {
                        continue; // one window per instance and slot
                    }
                    instances.add(instance);
                    slots.add(slot);
                    w.add(window(instance, slot, 1 + random.nextInt(100)));
                }
                sides.add(w);
                counts[s][0] = instances.size();
                counts[s][1] = slots.size();
            }
            SideReplicates.Pair pair = SideReplicates.pair(SideReplicates.of(sides.get(0)),
                    SideReplicates.of(sides.get(1)));
            String expected = counts[0][0] >= 2 && counts[1][0] >= 2 ? SideReplicates.INSTANCES
                    : counts[0][1] >= 2 && counts[1][1] >= 2 ? SideReplicates.WINDOWS : SideReplicates.NONE;
            String what = "case " + t + ": " + sides;
            assertThat(pair.unit()).as(what).isEqualTo(expected);
            int expectedA = expected.equals(SideReplicates.INSTANCES) ? counts[0][0]
                    : expected.equals(SideReplicates.WINDOWS) ? counts[0][1] : 1;
            assertThat(pair.a()).as(what).hasSize(expectedA);
            assertThat(samples(pair.a())).as(what).isEqualTo(sides.get(0).stream()
                    .mapToLong(w -> w.counts().samples()).sum());
            assertThat(samples(pair.b())).as(what).isEqualTo(sides.get(1).stream()
                    .mapToLong(w -> w.counts().samples()).sum());
        }
    }
}
