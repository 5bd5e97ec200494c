package io.cctflow.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.core.Cct;
import io.cctflow.core.NodeId;
import io.cctflow.core.RawThreadNames;
import io.cctflow.core.TreeCounts;
import io.cctflow.model.TruncationCounts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.Set;
import java.util.stream.IntStream;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link PackedWindow}: the counts of random trees, their sums and arbitrary well-formed tables come
 * back equal (every table, the raw thread names included), with node ids coded by random numberings
 * too; tables it cannot code are refused with {@code null}; damaged bytes are refused with {@link
 * IllegalArgumentException}.
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
        packed[0] = (byte) (PackedWindow.NUMBERED + 1);
        assertThatThrownBy(() -> PackedWindow.unpack(packed)).hasMessageContaining("format");
    }

    /**
     * Projections of trees and their sums, with a random share of their node ids numbered (none,
     * some or all; numbers from a random range, a few ids of other nodes numbered too), come back
     * equal, read with one look-up of exactly the numbered nodes' numbers in the epoch packed; with
     * none numbered, and for counts that are not projections, the bytes are those of {@code pack(c)}.
     */
    @Property(tries = 300)
    void numberedProjectionsComeBackEqualWithOneLookUpOfTheirNumbers(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 150) int stacks) {
        Random random = new Random(seed);
        TreeCounts one = randomTree(random, stacks);
        TreeCounts sum = one.plus(randomTree(random, stacks / 2));
        for (TreeCounts c : List.of(SelfCounts.project(one), SelfCounts.project(sum))) {
            MapNumbering numbering = MapNumbering.random(random, c.nodeIds());
            byte[] packed = PackedWindow.pack(c, numbering);
            int[] numbers = numbering.numbersOf(c.nodeIds());
            if (numbers.length == 0 || c.threadNodeIds().length == 0) {
                assertThat(packed).isEqualTo(PackedWindow.pack(c));
            } else {
                assertThat(packed[0]).isEqualTo((byte) PackedWindow.NUMBERED);
            }
            TreeCounts back = PackedWindow.unpack(packed, numbering);
            assertThat(back).isEqualTo(c);
            assertThat(back.rawThreadNames().names()).containsExactly(c.rawThreadNames().names());
            if (packed[0] == PackedWindow.NUMBERED) {
                assertThat(numbering.lookUps).hasSize(1);
                assertThat(numbering.lookUps.get(0).epoch()).isEqualTo(numbering.epoch());
                assertThat(numbering.lookUps.get(0).numbers()).containsExactly(numbers);
            } else {
                assertThat(numbering.lookUps).isEmpty();
            }
        }
        for (TreeCounts c : List.of(one, sum)) {
            assertThat(PackedWindow.pack(c, MapNumbering.random(random, c.nodeIds()))).isEqualTo(PackedWindow.pack(c));
        }
    }

    /**
     * Node ids that share their high 32 bits (of both signs, low words of both signs), which
     * unpacking orders by their low words, come back equal and in order, numbered or not.
     */
    @Property(tries = 300)
    void idsSharingTheirHighWordsComeBackInOrder(@ForAll long seed, @ForAll @IntRange(min = 1, max = 60) int rows) {
        Random random = new Random(seed);
        long[] highs = {0, -1, 7, Integer.MIN_VALUE, Integer.MAX_VALUE};
        long[] nodeIds = random.ints(rows, 0, highs.length)
                .mapToLong(h -> highs[h] << 32 | (random.nextInt() & 0xFFFF_FFFFL)).sorted().distinct().toArray();
        long[] self = random.longs(nodeIds.length, 1, 1_000).toArray();
        long thread = random.nextLong();
        TreeCounts c = TreeCounts.of(nodeIds, self, self.clone(), nodeIds.clone(), LongStream.generate(() -> thread)
                .limit(nodeIds.length).toArray(), self.clone(), new long[] {thread}, new String[] {"main"},
                new long[0], new long[0], new long[0]);
        MapNumbering numbering = MapNumbering.random(random, c.nodeIds());
        assertThat(PackedWindow.unpack(PackedWindow.pack(c, numbering), numbering)).isEqualTo(c);
    }

    /** Numbers in a universe at most four times their count take less than random ids. */
    @Property(tries = 200)
    void denselyNumberedProjectionsAreShorter(@ForAll long seed, @ForAll @IntRange(min = 10, max = 150) int stacks,
            @ForAll @IntRange(min = 1, max = 4) int spread) {
        Random random = new Random(seed);
        TreeCounts c = SelfCounts.project(randomTree(random, stacks));
        long[] ids = c.nodeIds();
        MapNumbering numbering = MapNumbering.of(random.nextInt() | 1, ids,
                MapNumbering.distinct(random, ids.length, (long) spread * ids.length));
        byte[] numbered = PackedWindow.pack(c, numbering);
        assertThat(PackedWindow.unpack(numbered, numbering)).isEqualTo(c);
        if (ids.length >= 20) {
            assertThat(numbered.length).isLessThan(PackedWindow.pack(c).length);
        }
    }

    /** A single-threaded window keeps its one-varint entries when its ids are numbered. */
    @Property(tries = 100)
    void numberedSingleThreadedProjectionsComeBackEqual(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 60) int stacks) {
        Random random = new Random(seed);
        Cct tree = new Cct();
        int thread = tree.thread("main");
        for (int s = 0; s < stacks; s++) {
            int depth = 1 + random.nextInt(6);
            tree.addStack(random.longs(depth, 1, 5).toArray(), new int[depth], depth, thread, 1 + random.nextInt(9));
        }
        TreeCounts c = SelfCounts.project(TreeCounts.of(tree));
        MapNumbering numbering = MapNumbering.random(random, c.nodeIds());
        assertThat(PackedWindow.unpack(PackedWindow.pack(c, numbering), numbering)).isEqualTo(c);
    }

    /**
     * Numbers the reader's numbering does not know are thrown with {@link UnknownNodeNumbersException}
     * naming exactly them; a reader without a numbering, or of another epoch, knows none.
     */
    @Property(tries = 200)
    void unknownNumbersAreThrownByName(@ForAll long seed, @ForAll @IntRange(min = 1, max = 100) int stacks) {
        Random random = new Random(seed);
        TreeCounts c = SelfCounts.project(randomTree(random, stacks));
        long[] ids = c.nodeIds();
        MapNumbering writer = MapNumbering.of(random.nextInt() | 1, ids, MapNumbering.distinct(random, ids.length,
                ids.length + random.nextInt(1000)));
        byte[] packed = PackedWindow.pack(c, writer);
        int[] all = writer.numbersOf(ids);
        Map<Long, Integer> remembered = new HashMap<>();
        List<Integer> forgotten = new ArrayList<>();
        for (long id : ids) {
            if (random.nextInt(4) == 0) {
                forgotten.add(writer.numberOf(id));
            } else {
                remembered.put(id, writer.numberOf(id));
            }
        }
        MapNumbering reader = new MapNumbering(writer.epoch(), remembered);
        int[] unknown = forgotten.stream().mapToInt(Integer::intValue).sorted().toArray();
        if (unknown.length == 0) {
            assertThat(PackedWindow.unpack(packed, reader)).isEqualTo(c);
        } else {
            assertThatThrownBy(() -> PackedWindow.unpack(packed, reader)).isInstanceOfSatisfying(
                    UnknownNodeNumbersException.class, e -> {
                        assertThat(e.epoch()).isEqualTo(writer.epoch());
                        assertThat(e.numbers()).containsExactly(unknown);
                    });
        }
        MapNumbering otherEpoch = new MapNumbering(writer.epoch() ^ 2, writer.numbers);
        for (NodeNumbering none : List.of(NodeNumbering.NONE, otherEpoch)) {
            assertThatThrownBy(() -> PackedWindow.unpack(packed, none)).isInstanceOfSatisfying(
                    UnknownNodeNumbersException.class, e -> assertThat(e.numbers()).containsExactly(all));
        }
        assertThatThrownBy(() -> PackedWindow.unpack(packed)).isInstanceOf(UnknownNodeNumbersException.class);
    }

    /**
     * Numbered windows cut off, extended or changed are refused, never an index out of bounds or a
     * huge array; a changed number or epoch may also be one the numbering does not know.
     */
    @Property(tries = 500)
    void damagedNumberedBytesAreRefusedOrReadAsWellFormedTables(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 30) int stacks) {
        Random random = new Random(seed);
        TreeCounts c = SelfCounts.project(randomTree(random, stacks));
        MapNumbering numbering = MapNumbering.of(random.nextInt() | 1, c.nodeIds(),
                MapNumbering.distinct(random, c.nodeIds().length, c.nodeIds().length + random.nextInt(100)));
        byte[] packed = PackedWindow.pack(c, numbering);
        assertThat(packed[0]).isEqualTo((byte) PackedWindow.NUMBERED);
        byte[] cut = Arrays.copyOf(packed, random.nextInt(packed.length));
        assertThatThrownBy(() -> PackedWindow.unpack(cut, numbering)).isInstanceOf(IllegalArgumentException.class);
        byte[] longer = Arrays.copyOf(packed, packed.length + 1);
        assertThatThrownBy(() -> PackedWindow.unpack(longer, numbering)).isInstanceOf(IllegalArgumentException.class);
        byte[] changed = packed.clone();
        changed[random.nextInt(changed.length)] ^= (byte) (1 << random.nextInt(8));
        try {
            PackedWindow.unpack(changed, numbering); // valid tables, other than those packed: the checksum catches that
        } catch (IllegalArgumentException | UnknownNodeNumbersException refused) {
            // refused as damaged, or a number (or epoch) changed to one not known: any other exception fails
        }
    }

    /**
     * A numbering that gives a window's number to an id the window also holds, among its other ids
     * or as another number's, is refused: never tables with a node twice.
     */
    @Property(tries = 100)
    void numbersOfIdsTheWindowAlsoHoldsAreRefused(@ForAll long seed, @ForAll @IntRange(min = 2, max = 60) int stacks) {
        Random random = new Random(seed);
        TreeCounts c = SelfCounts.project(randomTree(random, stacks));
        long[] ids = c.nodeIds();
        if (ids.length < 3) {
            return;
        }
        int numbered = 1 + random.nextInt(ids.length - 1); // the first ids numbered, at least one not
        long[] numberedIds = Arrays.copyOf(ids, numbered);
        MapNumbering writer = MapNumbering.of(random.nextInt() | 1, numberedIds,
                MapNumbering.distinct(random, numbered, numbered + random.nextInt(50)));
        byte[] packed = PackedWindow.pack(c, writer);
        int wrong = random.nextInt(numbered);
        int other = (wrong + 1 + random.nextInt(ids.length - 1)) % ids.length; // numbered or not, another node
        MapNumbering reader = writer.reading(writer.numberOf(ids[wrong]), ids[other]);
        assertThatThrownBy(() -> PackedWindow.unpack(packed, reader)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("damaged packed window").hasMessageContaining("twice");
    }

    /**
     * The layout of format 4 on a small window: numbers 0, 3 and 5 (universe 6) take one low bit
     * each and their high parts 0, 1 and 2 in unary, before the root's id (the one not numbered)
     * and the self counts in packed order.
     */
    @Example
    void numbersAreEliasFanoCodedInTheirUniverseAndNodesPackedByNumber() {
        long[] ids = {10, 20, 30, NodeId.ROOT};
        long[] self = {2, 1, 4, 0};
        long[] thread = {99, 99, 99};
        TreeCounts c = TreeCounts.of(ids, self, new long[] {2, 1, 4, 7}, new long[] {10, 20, 30}, thread,
                new long[] {2, 1, 4}, new long[] {99}, new String[] {"main"}, new long[0], new long[0], new long[0]);
        MapNumbering numbering = MapNumbering.of(1, new long[] {10, 20, 30}, new int[] {5, 0, 3});
        byte[] packed = PackedWindow.pack(c, numbering);
        // version, epoch, 3 numbers, universe 6, low bits 0,1,1, unary 1 01 01, then 1 other id
        assertThat(Arrays.copyOf(packed, 7)).containsExactly(4, 1, 3, 6, 0b110, 0b10101, 1);
        // after the other id (63 low bits, one byte of unary): self of 20, 30, 10, the root; the root's total
        assertThat(Arrays.copyOfRange(packed, 7 + 8 + 1, 7 + 8 + 1 + 5)).containsExactly(1, 4, 2, 0, 7);
        assertThat(PackedWindow.unpack(packed, numbering)).isEqualTo(c);
    }

    @Example
    void refusesToPackWithANumberingThatGivesANumberTwice() {
        TreeCounts c = SelfCounts.project(randomTree(new Random(7), 20));
        long[] ids = c.nodeIds();
        MapNumbering twice = MapNumbering.of(5, ids, IntStream.range(0, ids.length).map(n -> Math.min(n, 1)).toArray());
        assertThatThrownBy(() -> PackedWindow.pack(c, twice)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("number 1");
    }

    /**
     * A numbering over maps both ways, which remembers its look-ups (each as the epoch and numbers
     * asked) and checks that the numbers asked are ascending.
     */
    private static final class MapNumbering implements NodeNumbering {
        private final int epoch;
        final Map<Long, Integer> numbers;
        private final Map<Integer, Long> ids;
        final List<LookUp> lookUps = new ArrayList<>();

        MapNumbering(int epoch, Map<Long, Integer> numbers) {
            this(epoch, numbers, new HashMap<>());
            numbers.forEach((id, number) -> ids.put(number, id));
        }

        private MapNumbering(int epoch, Map<Long, Integer> numbers, Map<Integer, Long> ids) {
            this.epoch = epoch;
            this.numbers = numbers;
            this.ids = ids;
        }

        /** {@code ids[i]} numbered {@code numbers[i]}. */
        static MapNumbering of(int epoch, long[] ids, int[] numbers) {
            Map<Long, Integer> map = new HashMap<>();
            for (int i = 0; i < ids.length; i++) {
                map.put(ids[i], numbers[i]);
            }
            return new MapNumbering(epoch, map);
        }

        /** This numbering, but reading {@code number} as {@code id}. */
        MapNumbering reading(int number, long id) {
            Map<Integer, Long> wrong = new HashMap<>(ids);
            wrong.put(number, id);
            return new MapNumbering(epoch, numbers, wrong);
        }

        /**
         * A random nonzero epoch numbering none, some or all of {@code ids} (and a few other ids) with
         * distinct numbers from a random range.
         */
        static MapNumbering random(Random random, long[] ids) {
            List<Long> numbered = new ArrayList<>();
            double share = switch (random.nextInt(3)) {
                case 0 -> 0;
                case 1 -> random.nextDouble();
                default -> 1;
            };
            for (long id : ids) {
                if (random.nextDouble() < share) {
                    numbered.add(id);
                }
            }
            for (int k = random.nextInt(4); k > 0; k--) {
                long other = random.nextLong();
                if (Arrays.binarySearch(ids, other) < 0) {
                    numbered.add(other);
                }
            }
            int n = numbered.size();
            long range = switch (random.nextInt(3)) {
                case 0 -> n;
                case 1 -> n + random.nextInt(4 * n + 1);
                default -> n + random.nextLong((1L << 31) - n + 1);
            };
            int[] numbers = distinct(random, n, range);
            return of(random.nextInt() | 1, numbered.stream().mapToLong(Long::longValue).toArray(), numbers);
        }

        /** {@code n} distinct numbers below {@code range} (at least n, at most 2^31), in random order. */
        static int[] distinct(Random random, int n, long range) {
            List<Integer> numbers = new ArrayList<>();
            if (range <= 4L * n + 16) {
                IntStream.range(0, (int) range).forEach(numbers::add);
                Collections.shuffle(numbers, random);
                numbers = numbers.subList(0, n);
            } else {
                Set<Integer> seen = new HashSet<>();
                while (numbers.size() < n) {
                    int number = (int) random.nextLong(range);
                    if (seen.add(number)) {
                        numbers.add(number);
                    }
                }
            }
            return numbers.stream().mapToInt(Integer::intValue).toArray();
        }

        /** The numbers of those of {@code ids} numbered, ascending. */
        int[] numbersOf(long[] ids) {
            return Arrays.stream(ids).mapToInt(this::numberOf).filter(n -> n >= 0).sorted().toArray();
        }

        @Override
        public int epoch() {
            return epoch;
        }

        @Override
        public int numberOf(long id) {
            return numbers.getOrDefault(id, -1);
        }

        @Override
        public long[] idsOf(int epoch, int[] numbers) {
            lookUps.add(new LookUp(epoch, numbers.clone()));
            for (int i = 1; i < numbers.length; i++) {
                assertThat(numbers[i]).isGreaterThan(numbers[i - 1]);
            }
            int[] unknown = IntStream.of(numbers).filter(n -> epoch != this.epoch || !ids.containsKey(n)).toArray();
            if (unknown.length > 0) {
                throw new UnknownNodeNumbersException(epoch, unknown);
            }
            return IntStream.of(numbers).mapToLong(ids::get).toArray();
        }
    }

    private record LookUp(int epoch, int[] numbers) {
    }

    private static long[] column(List<long[]> rows, int k) {
        return rows.stream().mapToLong(r -> r[k]).toArray();
    }
}
