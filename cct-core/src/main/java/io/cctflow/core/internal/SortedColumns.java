package io.cctflow.core.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Sparse count tables as columns of equal length: the first {@code keyColumns} columns are a key,
 * rows sorted ascending by it (signed, lexicographic, no duplicates); the other columns are counts.
 * Summing two tables is one linear merge. Stateless.
 */
public final class SortedColumns {
    private SortedColumns() {
    }

    /**
     * The row-wise sum of two tables with the same shape: rows with equal keys have their counts
     * added, the others are copied. Neither input is modified. When the keys of one input are all
     * the keys of the sum (e.g. a window's running sum and a batch that brought no new node), the
     * sum's key columns are that input's arrays, not copies: tables are never modified after they
     * are built, and the running sum then allocates only its count columns.
     */
    public static long[][] sum(long[][] a, long[][] b, int keyColumns) {
        int columns = a.length;
        if (b.length != columns || keyColumns < 1 || keyColumns > columns) {
            throw new IllegalArgumentException("tables of " + a.length + " and " + b.length + " columns, "
                    + keyColumns + " key columns");
        }
        int n = rows(a);
        int m = rows(b);
        // rows of the sum counted first, so each column is allocated once at its final length
        int rows = 0;
        for (int i = 0, j = 0; i < n || j < m; rows++) {
            int c = i == n ? 1 : j == m ? -1 : compareKeys(a, i, b, j, keyColumns);
            if (c <= 0) {
                i++;
            }
            if (c >= 0) {
                j++;
            }
        }
        long[][] sharedKeys = rows == n ? a : rows == m ? b : null;
        long[][] out = new long[columns][];
        for (int col = 0; col < columns; col++) {
            out[col] = sharedKeys != null && col < keyColumns ? sharedKeys[col] : new long[rows];
        }
        int firstWritten = sharedKeys != null ? keyColumns : 0;
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < n || j < m) {
            int c = i == n ? 1 : j == m ? -1 : compareKeys(a, i, b, j, keyColumns);
            for (int col = firstWritten; col < columns; col++) {
                if (c < 0) {
                    out[col][k] = a[col][i];
                } else if (c > 0) {
                    out[col][k] = b[col][j];
                } else {
                    out[col][k] = col < keyColumns ? a[col][i] : a[col][i] + b[col][j];
                }
            }
            if (c <= 0) {
                i++;
            }
            if (c >= 0) {
                j++;
            }
            k++;
        }
        return out;
    }

    /**
     * The row-wise sum of any number of tables with the same shape, as a fold of {@link #sum} would
     * give it. None of the inputs is modified.
     *
     * <p>Largest table first: its rows are copied, and each further table whose keys it already
     * holds is added in place (a forward walk that gallops over the rows the smaller table lacks),
     * which is what summing a range read's windows mostly is (a day's hourly roll-ups and the
     * fine windows at its edges share their nodes). A table with keys the sum lacks is merged in
     * ({@link #sum}) while the merges have cost at most twice the rows of all tables; beyond that
     * the rest is summed in a hash table by key and sorted once, so {@code k} tables of {@code n}
     * rows never cost a fold's O(k * union).
     *
     * @param tables at least one table; all with the same number of columns
     */
    public static long[][] sumAll(List<long[][]> tables, int keyColumns) {
        int columns = tables.get(0).length;
        if (keyColumns < 1 || keyColumns > columns) {
            throw new IllegalArgumentException("tables of " + columns + " columns, " + keyColumns + " key columns");
        }
        long allRows = 0;
        for (long[][] t : tables) {
            if (t.length != columns) {
                throw new IllegalArgumentException("tables of " + columns + " and " + t.length + " columns");
            }
            allRows += rows(t);
        }
        List<long[][]> bySize = new ArrayList<>(tables);
        bySize.sort(Comparator.comparingInt((long[][] t) -> t[0].length).reversed());
        long[][] acc = new long[columns][];
        for (int col = 0; col < columns; col++) {
            acc[col] = bySize.get(0)[col].clone();
        }
        long mergeBudget = 2 * allRows;
        int[] at = new int[0];
        List<long[][]> rest = new ArrayList<>();
        for (long[][] t : bySize.subList(1, bySize.size())) {
            int n = t[0].length;
            if (n == 0) {
                continue;
            }
            if (at.length < n) {
                at = new int[Math.max(n, at.length * 2)];
            }
            if (addInPlace(acc, t, keyColumns, at)) {
                continue;
            }
            if (rest.isEmpty() && mergeBudget >= acc[0].length + n) {
                mergeBudget -= acc[0].length + n;
                acc = sum(acc, t, keyColumns);
            } else {
                rest.add(t);
            }
        }
        if (rest.isEmpty()) {
            return acc;
        }
        rest.add(0, acc);
        return hashSum(rest, keyColumns);
    }

    /**
     * Adds the counts of {@code t} to those of {@code acc}, in place, when every key of {@code t} is
     * in {@code acc} (both sorted by key; {@code at} at least as long as {@code t}, scratch); false,
     * with {@code acc} untouched, when one is not.
     */
    static boolean addInPlace(long[][] acc, long[][] t, int keyColumns, int[] at) {
        if (!findRows(acc, t, keyColumns, at)) {
            return false;
        }
        int n = t[0].length;
        for (int col = keyColumns; col < acc.length; col++) {
            long[] sums = acc[col];
            long[] counts = t[col];
            for (int r = 0; r < n; r++) {
                sums[at[r]] += counts[r];
            }
        }
        return true;
    }

    /**
     * Where each row of {@code t} is in {@code acc} (both sorted by key), into {@code at}; false
     * (with {@code at} partly written) as soon as a key of {@code t} is not in {@code acc}.
     */
    private static boolean findRows(long[][] acc, long[][] t, int keyColumns, int[] at) {
        if (keyColumns == 1) {
            return findRows(acc[0], t[0], at);
        }
        int size = acc[0].length;
        int i = 0;
        for (int r = 0; r < t[0].length; r++) {
            // gallop: the first row of acc at or after t's row r, from where row r - 1 was found
            int step = 1;
            int lo = i;
            while (i < size && compareKeys(acc, i, t, r, keyColumns) < 0) {
                lo = i + 1;
                i = Math.min(size, i + step);
                step *= 2;
            }
            int hi = i; // acc[lo - 1] < key <= acc[hi] (or hi == size)
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (compareKeys(acc, mid, t, r, keyColumns) < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            i = lo;
            if (i == size || compareKeys(acc, i, t, r, keyColumns) != 0) {
                return false;
            }
            at[r] = i;
        }
        return true;
    }

    /** {@link #findRows(long[][], long[][], int, int[])} for keys of one column (nodes, methods): the hot case. */
    private static boolean findRows(long[] acc, long[] keys, int[] at) {
        int size = acc.length;
        int i = 0;
        for (int r = 0; r < keys.length; r++) {
            long key = keys[r];
            int step = 1;
            int lo = i;
            while (i < size && acc[i] < key) {
                lo = i + 1;
                i = Math.min(size, i + step);
                step *= 2;
            }
            int hi = i;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (acc[mid] < key) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            i = lo;
            if (i == size || acc[i] != key) {
                return false;
            }
            at[r] = i;
        }
        return true;
    }

    /**
     * The row-wise sum of the tables, accumulated in a hash table by key and sorted once: O(rows)
     * however many tables there are and however their keys differ.
     */
    private static long[][] hashSum(List<long[][]> tables, int keyColumns) {
        int columns = tables.get(0).length;
        RowSums acc = new RowSums(columns, keyColumns, 1024);
        for (long[][] t : tables) {
            int n = rows(t);
            for (int r = 0; r < n; r++) {
                acc.add(t, r);
            }
        }
        long[][] rows = acc.table();
        int[] order = new int[rows[0].length];
        for (int r = 0; r < order.length; r++) {
            order[r] = r;
        }
        sortRows(rows, keyColumns, order); // keys are unique now
        long[][] out = new long[rows.length][order.length];
        for (int col = 0; col < rows.length; col++) {
            for (int r = 0; r < order.length; r++) {
                out[col][r] = rows[col][order[r]];
            }
        }
        return out;
    }

    /** Rows summed by key: open addressing over row indexes, columns grown by doubling. Not thread-safe. */
    private static final class RowSums {
        private final int keyColumns;
        private long[][] rows;
        private int size;
        private int[] slots; // row index + 1; 0 = empty
        private int mask;

        RowSums(int columns, int keyColumns, int expected) {
            this.keyColumns = keyColumns;
            this.rows = new long[columns][expected];
            this.slots = new int[Integer.highestOneBit(expected) * 4];
            this.mask = slots.length - 1;
        }

        void add(long[][] table, int r) {
            long k0 = table[0][r];
            long k1 = keyColumns > 1 ? table[1][r] : 0;
            long[] keys0 = rows[0];
            long[] keys1 = keyColumns > 1 ? rows[1] : null;
            int i = slot(table, r);
            int row;
            while ((row = slots[i] - 1) >= 0) {
                if (keys0[row] == k0 && (keyColumns == 1 || (keys1[row] == k1
                        && (keyColumns == 2 || compareKeys(rows, row, table, r, keyColumns) == 0)))) {
                    for (int col = keyColumns; col < rows.length; col++) {
                        rows[col][row] += table[col][r];
                    }
                    return;
                }
                i = (i + 1) & mask;
            }
            if (size == keys0.length) {
                for (int col = 0; col < rows.length; col++) {
                    rows[col] = Arrays.copyOf(rows[col], size * 2);
                }
            }
            for (int col = 0; col < rows.length; col++) {
                rows[col][size] = table[col][r];
            }
            slots[i] = ++size;
            if (size * 2 > slots.length) {
                rehash();
            }
        }

        long[][] table() {
            long[][] out = new long[rows.length][];
            for (int col = 0; col < rows.length; col++) {
                out[col] = Arrays.copyOf(rows[col], size);
            }
            return out;
        }

        private int slot(long[][] table, int r) {
            long h = 0;
            for (int col = 0; col < keyColumns; col++) {
                h = (h ^ table[col][r]) * 0x9E37_79B9_7F4A_7C15L;
            }
            return (int) (h ^ (h >>> 32)) & mask;
        }

        private void rehash() {
            slots = new int[slots.length * 2];
            mask = slots.length - 1;
            for (int row = 0; row < size; row++) {
                int i = slot(rows, row);
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = row + 1;
            }
        }
    }

    /** Sorts the rows of a table by key, in place, and merges rows with equal keys by adding counts. */
    public static long[][] sortAndCombine(long[][] table, int keyColumns) {
        int n = rows(table);
        int[] order = new int[n];
        for (int r = 0; r < n; r++) {
            order[r] = r;
        }
        sortRows(table, keyColumns, order);
        long[][] out = new long[table.length][n];
        int k = -1;
        for (int r = 0; r < n; r++) {
            int row = order[r];
            boolean same = k >= 0 && compareKeys(out, k, table, row, keyColumns) == 0;
            if (!same) {
                k++;
            }
            for (int col = 0; col < table.length; col++) {
                out[col][k] = same && col >= keyColumns ? out[col][k] + table[col][row] : table[col][row];
            }
        }
        for (int col = 0; col < table.length; col++) {
            out[col] = Arrays.copyOf(out[col], k + 1);
        }
        return out;
    }

    private static final int INSERTION_RUN = 32;

    /**
     * Sorts row indexes by the rows' keys: a stable bottom-up merge sort on primitive indexes (runs
     * once per batch and table in the samples job, where sorting boxed indexes cost more than the
     * rest of the counting, and once per range read in {@link #sumAll}).
     */
    private static void sortRows(long[][] table, int keyColumns, int[] order) {
        // keys of at most two columns (all tables here) compared inline: the sort is the hot loop
        long[] k0 = table[0];
        long[] k1 = keyColumns > 1 ? table[1] : null;
        int n = order.length;
        for (int lo = 0; lo < n; lo += INSERTION_RUN) {
            int hi = Math.min(lo + INSERTION_RUN, n);
            for (int i = lo + 1; i < hi; i++) {
                int row = order[i];
                int j = i - 1;
                while (j >= lo && before(table, keyColumns, k0, k1, row, order[j])) {
                    order[j + 1] = order[j];
                    j--;
                }
                order[j + 1] = row;
            }
        }
        if (n <= INSERTION_RUN) {
            return;
        }
        int[] from = order;
        int[] to = new int[n];
        for (int width = INSERTION_RUN; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    to[k++] = before(table, keyColumns, k0, k1, from[j], from[i]) ? from[j++] : from[i++];
                }
                while (i < mid) {
                    to[k++] = from[i++];
                }
                while (j < hi) {
                    to[k++] = from[j++];
                }
            }
            int[] t = from;
            from = to;
            to = t;
        }
        if (from != order) {
            System.arraycopy(from, 0, order, 0, n);
        }
    }

    /** Whether row {@code x}'s key sorts strictly before row {@code y}'s. */
    private static boolean before(long[][] table, int keyColumns, long[] k0, long[] k1, int x, int y) {
        long a = k0[x];
        long b = k0[y];
        if (a != b || keyColumns == 1) {
            return a < b;
        }
        if (keyColumns == 2) {
            return k1[x] < k1[y];
        }
        return compareKeys(table, x, table, y, keyColumns) < 0;
    }

    private static int rows(long[][] table) {
        int n = table[0].length;
        for (long[] column : table) {
            if (column.length != n) {
                throw new IllegalArgumentException("columns of different lengths");
            }
        }
        return n;
    }

    private static int compareKeys(long[][] a, int i, long[][] b, int j, int keyColumns) {
        for (int col = 0; col < keyColumns; col++) {
            int c = Long.compare(a[col][i], b[col][j]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
