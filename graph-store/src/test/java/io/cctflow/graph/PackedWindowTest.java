package io.cctflow.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.core.Cct;
import io.cctflow.core.RawThreadNames;
import io.cctflow.core.TreeCounts;
import io.cctflow.model.TruncationCounts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link PackedWindow}: the counts of random trees, their sums and arbitrary well-formed tables come
 * back equal (every table, the raw thread names included); tables it cannot code are refused with
 * {@code null}; damaged bytes are refused with {@link IllegalArgumentException}.
 */
class PackedWindowTest {
    /** Random stacks over few methods (so recursion and shared prefixes occur), on random threads. */
    private static TreeCounts randomTree(Random random, int stacks) {
        return RandomTrees.counts(RandomTrees.tree(random, stacks));
    }

    @Property(tries = 300)
    void unpackInvertsPackOnTheCountsOfRandomTreesAndTheirSums(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 150) int stacks) {
        Random random = new Random(seed);
        TreeCounts one = randomTree(random, stacks);
        TreeCounts sum = one.plus(randomTree(random, stacks / 2));
        for (TreeCounts c : List.of(one, sum, SelfCounts.project(one), SelfCounts.project(sum))) {
            byte[] packed = PackedWindow.pack(c);
            TreeCounts back = PackedWindow.unpack(packed);
            assertThat(back).isEqualTo(c);
            assertThat(back.rawThreadNames().names()).containsExactly(c.rawThreadNames().names());
            assertThat(WindowChecksum.of(back, TruncationCounts.NONE))
                    .isEqualTo(WindowChecksum.of(c, TruncationCounts.NONE));
        }
    }

    /** Any well-formed tables, extreme values and keys of both signs included, not only a tree's. */
    @Property(tries = 300)
    void unpackInvertsPackOnArbitraryTables(@ForAll @Size(max = 40) long[] nodeKeys, @ForAll long seed) {
        Random random = new Random(seed);
        long[] nodeIds = Arrays.stream(nodeKeys).sorted().distinct().toArray();
        long[] self = random.longs(nodeIds.length).toArray();
        long[] total = random.longs(nodeIds.length).toArray();
        long[] dictIds = random.longs(random.nextInt(4)).sorted().distinct().toArray();
        String[] dictNames = new String[dictIds.length];
        Arrays.setAll(dictNames, i -> RandomTrees.THREADS[i % RandomTrees.THREADS.length]);
        List<long[]> entries = new ArrayList<>();
        for (long node : nodeIds) {
            for (long thread : dictIds) {
                if (random.nextBoolean()) {
                    entries.add(new long[] {node, thread, random.nextLong()});
                }
            }
        }
        long[] methodIds = random.longs(random.nextInt(20)).sorted().distinct().toArray();
        TreeCounts c = TreeCounts.of(nodeIds, self, total, column(entries, 0), column(entries, 1), column(entries, 2),
                dictIds, dictNames, methodIds, random.longs(methodIds.length).toArray(),
                random.longs(methodIds.length).toArray());
        assertThat(PackedWindow.unpack(PackedWindow.pack(c))).isEqualTo(c);
    }

    /** Key sets of every size the low-bit width steps through, and the extreme keys. */
    @Property(tries = 100)
    void keysOfAnyCountAndRangeComeBack(@ForAll long seed, @ForAll @IntRange(min = 0, max = 20_000) int count,
            @ForAll @IntRange(min = 1, max = 64) int bits) {
        Random random = new Random(seed);
        long[] keys = random.longs(count).map(k -> bits == 64 ? k : k >> (64 - bits)).sorted().distinct().toArray();
        if (random.nextBoolean()) {
            keys = java.util.stream.LongStream.concat(Arrays.stream(keys),
                    java.util.stream.LongStream.of(Long.MIN_VALUE, -1, 0, Long.MAX_VALUE)).sorted().distinct().toArray();
        }
        long[] zeros = new long[keys.length];
        TreeCounts c = TreeCounts.of(keys, zeros, zeros, new long[0], new long[0], new long[0], new long[0],
                new String[0], keys, zeros, zeros);
        assertThat(PackedWindow.unpack(PackedWindow.pack(c))).isEqualTo(c);
    }

    @Example
    void refusesThreadEntriesOfNodesOrThreadsNotInTheirTables() {
        long[] one = {7};
        TreeCounts strayNode = TreeCounts.of(one, one, one, new long[] {8}, one, one, one, new String[] {"main"},
                new long[0], new long[0], new long[0]);
        TreeCounts strayThread = TreeCounts.of(one, one, one, one, new long[] {9}, one, one, new String[] {"main"},
                new long[0], new long[0], new long[0]);
        assertThat(PackedWindow.pack(strayNode)).isNull();
        assertThat(PackedWindow.pack(strayThread)).isNull();
    }

    /** Bytes cut off, extended or changed are refused, never an index out of bounds or a huge array. */
    @Property(tries = 500)
    void damagedBytesAreRefusedOrReadAsWellFormedTables(@ForAll long seed, @ForAll @IntRange(min = 0, max = 30) int stacks) {
        Random random = new Random(seed);
        TreeCounts tree = randomTree(random, stacks);
        byte[] packed = PackedWindow.pack(random.nextBoolean() ? tree : SelfCounts.project(tree));
        byte[] cut = Arrays.copyOf(packed, random.nextInt(packed.length));
        assertThatThrownBy(() -> PackedWindow.unpack(cut)).isInstanceOf(IllegalArgumentException.class);
        byte[] longer = Arrays.copyOf(packed, packed.length + 1);
        assertThatThrownBy(() -> PackedWindow.unpack(longer)).isInstanceOf(IllegalArgumentException.class);
        byte[] changed = packed.clone();
        changed[random.nextInt(changed.length)] ^= (byte) (1 << random.nextInt(8));
        try {
            PackedWindow.unpack(changed); // a changed count can read as valid tables: the checksum catches that
        } catch (IllegalArgumentException refused) {
            // refused as damaged: any other exception fails the property
        }
    }

    /** Projections of trees are written per node ({@code PROJECTED_BY_NODE}), and never longer than format 2 wrote them. */
    @Property(tries = 200)
    void projectionsOfTreesArePackedPerNodeAndNoLongerThanBefore(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 150) int stacks) {
        TreeCounts c = SelfCounts.project(randomTree(new Random(seed), stacks));
        byte[] packed = PackedWindow.pack(c);
        assertThat(packed[0]).isEqualTo((byte) PackedWindow.PROJECTED_BY_NODE);
        byte[] format2 = PackedWindow.pack(c, false);
        assertThat(format2[0]).isEqualTo((byte) PackedWindow.PROJECTED);
        assertThat(packed.length).isLessThanOrEqualTo(format2.length);
        assertThat(PackedWindow.unpack(format2)).isEqualTo(c); // windows written before are still read
    }

    /** A window whose samples all ran on one thread is coded by that thread alone, and read back equal. */
    @Property(tries = 100)
    void singleThreadedProjectionsComeBackEqual(@ForAll long seed, @ForAll @IntRange(min = 1, max = 60) int stacks) {
        Random random = new Random(seed);
        io.cctflow.core.Cct tree = new io.cctflow.core.Cct();
        int thread = tree.thread(random.nextBoolean() ? "main" : "worker-3");
        for (int s = 0; s < stacks; s++) {
            int depth = 1 + random.nextInt(6);
            long[] methods = random.longs(depth, 1, 5).toArray(); // few methods: recursion happens
            tree.addStack(methods, new int[depth], depth, thread, 1 + random.nextInt(9));
        }
        TreeCounts c = SelfCounts.project(TreeCounts.of(tree));
        byte[] packed = PackedWindow.pack(c);
        assertThat(PackedWindow.unpack(packed)).isEqualTo(c);
        // one byte for all entries: nodes, self counts and the dictionary are all the rest
        assertThat(packed.length).isLessThan(PackedWindow.pack(c, false).length - c.threadNodeIds().length);
    }

    @Example
    void refusesAnotherFormatVersion() {
        byte[] packed = PackedWindow.pack(TreeCounts.empty());
        packed[0] = (byte) (PackedWindow.PROJECTED_BY_NODE + 1);
        assertThatThrownBy(() -> PackedWindow.unpack(packed)).hasMessageContaining("format");
    }

    private static long[] column(List<long[]> rows, int k) {
        return rows.stream().mapToLong(r -> r[k]).toArray();
    }
}
