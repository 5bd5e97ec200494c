package io.cctflow.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

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

        assertThat(combined[0]).hasSize(reference.size());
        int r = 0;
        for (Map.Entry<List<Long>, long[]> e : reference.entrySet()) {
            for (int c = 0; c < keyColumns; c++) {
                assertThat(combined[c][r]).isEqualTo(e.getKey().get(c));
            }
            assertThat(combined[keyColumns][r]).isEqualTo(e.getValue()[0]);
            assertThat(combined[keyColumns + 1][r]).isEqualTo(e.getValue()[1]);
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
