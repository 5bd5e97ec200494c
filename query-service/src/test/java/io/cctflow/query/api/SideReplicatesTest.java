package io.cctflow.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.graph.Keys;
import io.cctflow.model.Resolution;
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

    /** A window as {@link #window} of a real execution key of service s, version v. */
    private static WindowCounts execution(String version, String instance, int slot, long samples) {
        WindowCounts w = window(instance, slot, samples);
        return new WindowCounts(new ExecutionId("s", version, instance).key(), w.windowStartMillis(),
                w.windowEndMillis(), w.counts());
    }

    @Test
    void aSideReadFromGroupRollUpsOffersGroupsAndPairsInGroupsWithASideOfInstances() {
        int groups = 4;
        // a: two groups' roll-ups of v1, and an instance of a group without one (read from its own windows)
        List<String> v1 = new ArrayList<>();
        for (int i = 0; v1.size() < 3; i++) {
            String key = new ExecutionId("s", "v1", "i" + i).key();
            if (v1.stream().noneMatch(k -> Keys.groupOf(k, groups) == Keys.groupOf(key, groups))) {
                v1.add(key);
            }
        }
        List<WindowCounts> a = new ArrayList<>();
        for (int g = 0; g < 2; g++) {
            WindowCounts w = window("x", 0, 10 + g);
            a.add(new WindowCounts(Keys.instanceGroup(v1.get(g), groups), 0, Resolution.HOUR.millis(), w.counts()));
        }
        WindowCounts own = execution("v1", ExecutionId.fromKey(v1.get(2)).instance(), 1, 7);
        a.add(own);
        // b: three instances of v2 (from fine windows)
        List<WindowCounts> b = List.of(execution("v2", "j0", 0, 5), execution("v2", "j1", 0, 6),
                execution("v2", "j2", 1, 8));
        SideReplicates sa = SideReplicates.of(a, groups);
        SideReplicates sb = SideReplicates.of(b, groups);
        assertThat(sa.instances()).as("group roll-ups hold many instances: none offered").isEmpty();
        assertThat(sa.groups()).extracting(MethodSamples::samples).containsExactlyInAnyOrder(10L, 11L, 7L);
        assertThat(sb.instances()).hasSize(3);
        long groupsOfB = b.stream().map(w -> Keys.instanceGroup(w.executionKey(), groups)).distinct().count();
        assertThat(sb.groups()).hasSize((int) groupsOfB);
        SideReplicates.Pair pair = SideReplicates.pair(sa, sb);
        assertThat(pair.unit()).isEqualTo(groupsOfB >= 2 ? SideReplicates.INSTANCE_GROUPS : SideReplicates.WINDOWS);
        assertThat(pair.offered()).startsWith("a: 0 instances, 3 instance groups, 2 windows, b: 3 instances, ");
        assertThat(samples(pair.a())).isEqualTo(28L);
        assertThat(samples(pair.b())).isEqualTo(19L);

        // two sides of instances keep the instances, the finer unit
        assertThat(SideReplicates.pair(sb, SideReplicates.of(List.of(execution("v1", "k0", 0, 3),
                execution("v1", "k1", 0, 4)), groups)).unit()).isEqualTo(SideReplicates.INSTANCES);
        // without groups (the alerting refresher's call) nothing is grouped
        assertThat(SideReplicates.of(b).groups()).isEmpty();
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
