package io.cctflow.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class SortedColumnsTest {
    /**
     * Random tables (sizes around the insertion runs and several merge passes, keys from a small
     * range so rows repeat) against a brute-force reference: a sorted map from key to summed counts.
     */
    @Property(tries = 300)
    void sortAndCombineEqualsSummingPerKeyInKeyOrder(@ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int rows,
            @ForAll @IntRange(min = 1, max = 3) int keyColumns, @ForAll @IntRange(min = 1, max = 50) int keyRange) {
        Random random = new Random(seed);
        int columns = keyColumns + 2;
        long[][] table = new long[columns][rows];
        TreeMap<List<Long>, long[]> reference = new TreeMap<>(SortedColumnsTest::compareLists);
        for (int r = 0; r < rows; r++) {
            List<Long> key = new ArrayList<>();
            for (int c = 0; c < keyColumns; c++) {
                table[c][r] = random.nextInt(keyRange) - keyRange / 2;
                key.add(table[c][r]);
            }
            long[] sums = reference.computeIfAbsent(key, k -> new long[2]);
            for (int c = keyColumns; c < columns; c++) {
                table[c][r] = random.nextInt(1000);
                sums[c - keyColumns] += table[c][r];
            }
        }

        long[][] combined = SortedColumns.sortAndCombine(table, keyColumns);

        assertMatches(combined, reference, keyColumns);
    }

    /**
     * Two random sorted tables against the same reference, with the second table's keys often a
     * subset of the first's (or the other way round), the case where the sum takes over that input's
     * key columns: the sum is right either way and neither input changes.
     */
    @Property(tries = 300)
    void sumEqualsSummingPerKeyAndLeavesItsInputsAlone(@ForAll long seed, @ForAll @IntRange(min = 0, max = 200) int rows,
            @ForAll @IntRange(min = 1, max = 2) int keyColumns, @ForAll @IntRange(min = 0, max = 2) int shape) {
        Random random = new Random(seed);
        long[][] a = randomTable(random, rows, keyColumns);
        long[][] b = randomTable(random, rows, keyColumns);
        if (shape == 1) {
            b = subsetOf(random, a, keyColumns); // b brings no new key
        } else if (shape == 2) {
            a = subsetOf(random, b, keyColumns); // a brings no new key
        }
        long[][] aBefore = deepCopy(a);
        long[][] bBefore = deepCopy(b);
        TreeMap<List<Long>, long[]> reference = sumsByKey(List.of(a, b), keyColumns);

        long[][] sum = SortedColumns.sum(a, b, keyColumns);

        assertMatches(sum, reference, keyColumns);
        assertThat(a).isDeepEqualTo(aBefore);
        assertThat(b).isDeepEqualTo(bBefore);
        for (int c = keyColumns; c < sum.length; c++) {
            assertThat(sum[c]).isNotSameAs(a[c]).isNotSameAs(b[c]);
        }
    }

    /** Rows with distinct keys in key order, counts 0..999. */
    private static long[][] randomTable(Random random, int rows, int keyColumns) {
        long[][] table = new long[keyColumns + 2][rows];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < keyColumns; c++) {
                table[c][r] = random.nextInt(60) - 30;
            }
            table[keyColumns][r] = random.nextInt(1000);
            table[keyColumns + 1][r] = random.nextInt(1000);
        }
        return SortedColumns.sortAndCombine(table, keyColumns);
    }

    /** Some of the rows of {@code table} (keys kept in order), with new counts. */
    private static long[][] subsetOf(Random random, long[][] table, int keyColumns) {
        List<Integer> kept = new ArrayList<>();
        for (int r = 0; r < table[0].length; r++) {
            if (random.nextInt(4) != 0) {
                kept.add(r);
            }
        }
        long[][] subset = new long[table.length][kept.size()];
        for (int k = 0; k < kept.size(); k++) {
            for (int c = 0; c < keyColumns; c++) {
                subset[c][k] = table[c][kept.get(k)];
            }
            subset[keyColumns][k] = random.nextInt(1000);
            subset[keyColumns + 1][k] = random.nextInt(1000);
        }
        return subset;
    }

    private static long[][] deepCopy(long[][] table) {
        long[][] copy = new long[table.length][];
        for (int c = 0; c < table.length; c++) {
            copy[c] = table[c].clone();
        }
        return copy;
    }

    /**
     * Many tables whose keys nest (drawn from a prefix of one key range: most tables hold a subset
     * of the largest), overlap or are disjoint, some empty, against the brute-force reference: a
     * sorted map from key to summed counts. Covers the in-place additions, the merges and, with
     * many tables that each bring new keys, the hashing of what remains.
     */
    @Property(tries = 300)
    void sumAllEqualsSummingPerKeyInKeyOrder(@ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int tableCount,
            @ForAll @IntRange(min = 0, max = 200) int maxRows, @ForAll @IntRange(min = 1, max = 3) int keyColumns,
            @ForAll @IntRange(min = 1, max = 400) int keyRange) {
        List<long[][]> tables = randomTables(seed, tableCount, maxRows, keyColumns, keyRange);
        TreeMap<List<Long>, long[]> reference = sumsByKey(tables, keyColumns);
        List<long[][]> copies = tables.stream().map(SortedColumnsTest::deepCopy).toList();

        long[][] sum = SortedColumns.sumAll(tables, keyColumns);

        assertMatches(sum, reference, keyColumns);
        for (int t = 0; t < tables.size(); t++) {
            assertThat(tables.get(t)).as("input table %d is not modified", t).isDeepEqualTo(copies.get(t));
        }
    }

    /**
     * The same tables added one at a time to a {@link RunningColumnSum} (in place, waiting, merged),
     * against the same reference; no input modified, nothing added after the sum is taken.
     */
    @Property(tries = 300)
    void runningSumEqualsSummingPerKeyInKeyOrder(@ForAll long seed, @ForAll @IntRange(min = 0, max = 40) int tableCount,
            @ForAll @IntRange(min = 0, max = 300) int maxRows, @ForAll @IntRange(min = 1, max = 3) int keyColumns,
            @ForAll @IntRange(min = 1, max = 3000) int keyRange) {
        List<long[][]> tables = randomTables(seed, tableCount, maxRows, keyColumns, keyRange);
        TreeMap<List<Long>, long[]> reference = sumsByKey(tables, keyColumns);
        List<long[][]> copies = tables.stream().map(SortedColumnsTest::deepCopy).toList();
        RunningColumnSum running = new RunningColumnSum(keyColumns + 2, keyColumns);

        tables.forEach(running::add);
        long[][] sum = running.table();

        assertMatches(sum, reference, keyColumns);
        for (int t = 0; t < tables.size(); t++) {
            assertThat(tables.get(t)).as("input table %d is not modified", t).isDeepEqualTo(copies.get(t));
        }
        assertThatThrownBy(() -> running.add(copies.isEmpty() ? new long[keyColumns + 2][0] : copies.get(0)))
                .isInstanceOf(IllegalStateException.class);
    }

    /**
     * Tables whose keys nest (a prefix of one key range), overlap (a shifted prefix) or are
     * disjoint, some empty, each sorted and combined.
     */
    private static List<long[][]> randomTables(long seed, int tableCount, int maxRows, int keyColumns, int keyRange) {
        Random random = new Random(seed);
        int columns = keyColumns + 2;
        List<long[][]> tables = new ArrayList<>();
        for (int t = 0; t < tableCount; t++) {
            int rows = maxRows == 0 ? 0 : random.nextInt(maxRows + 1);
            int range = 1 + random.nextInt(keyRange); // keys of this table: a prefix of the range, shifted or not
            int offset = random.nextInt(4) == 0 ? random.nextInt(keyRange) : 0;
            long[][] raw = new long[columns][rows];
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < keyColumns; c++) {
                    raw[c][r] = random.nextInt(range) + offset - keyRange / 2;
                }
                for (int c = keyColumns; c < columns; c++) {
                    raw[c][r] = random.nextInt(1000) - 100;
                }
            }
            tables.add(SortedColumns.sortAndCombine(raw, keyColumns));
        }
        return tables;
    }

    /** The brute-force reference: every key of the tables with its two counts summed, in key order. */
    private static TreeMap<List<Long>, long[]> sumsByKey(List<long[][]> tables, int keyColumns) {
        TreeMap<List<Long>, long[]> reference = new TreeMap<>(SortedColumnsTest::compareLists);
        for (long[][] t : tables) {
            for (int r = 0; r < t[0].length; r++) {
                List<Long> key = new ArrayList<>();
                for (int c = 0; c < keyColumns; c++) {
                    key.add(t[c][r]);
                }
                long[] sums = reference.computeIfAbsent(key, k -> new long[2]);
                sums[0] += t[keyColumns][r];
                sums[1] += t[keyColumns + 1][r];
            }
        }
        return reference;
    }

    /** {@code table} holds exactly the reference's keys in its order, with its sums. */
    private static void assertMatches(long[][] table, TreeMap<List<Long>, long[]> reference, int keyColumns) {
        assertThat(table[0]).hasSize(reference.size());
        int r = 0;
        for (Map.Entry<List<Long>, long[]> e : reference.entrySet()) {
            for (int c = 0; c < keyColumns; c++) {
                assertThat(table[c][r]).isEqualTo(e.getKey().get(c));
            }
            assertThat(table[keyColumns][r]).isEqualTo(e.getValue()[0]);
            assertThat(table[keyColumns + 1][r]).isEqualTo(e.getValue()[1]);
            r++;
        }
    }

    private static int compareLists(List<Long> a, List<Long> b) {
        for (int i = 0; i < a.size(); i++) {
            int c = Long.compare(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
