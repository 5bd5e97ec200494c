package io.cctflow.core.internal;

import java.util.Arrays;

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
     * added, the others are copied. Neither input is modified.
     */
    public static long[][] sum(long[][] a, long[][] b, int keyColumns) {
        int columns = a.length;
        if (b.length != columns || keyColumns < 1 || keyColumns > columns) {
            throw new IllegalArgumentException("tables of " + a.length + " and " + b.length + " columns, "
                    + keyColumns + " key columns");
        }
        int n = rows(a);
        int m = rows(b);
        long[][] out = new long[columns][n + m];
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < n || j < m) {
            int c = i == n ? 1 : j == m ? -1 : compareKeys(a, i, b, j, keyColumns);
            for (int col = 0; col < columns; col++) {
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
        for (int col = 0; col < columns; col++) {
            out[col] = Arrays.copyOf(out[col], k);
        }
        return out;
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
     * rest of the counting).
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
