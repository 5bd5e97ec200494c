package io.cctflow.core.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * A count table ({@link SortedColumns}) summed as tables arrive, one at a time, equal to {@link
 * SortedColumns#sumAll} of all of them. A table whose keys the sum holds already is added in place
 * (no allocation): what a stream of windows of the same instances mostly is. A table with keys the
 * sum lacks waits, and so does every table after it (without trying) until the waiting rows reach
 * the sum's rows; they are then merged in together ({@link SortedColumns#sumAll}), so each row is
 * merged in amortised O(1) times, at most one failed try is made per merge, and what waits is
 * bounded by the sum's size, never by the number of tables. Not thread-safe.
 */
public final class RunningColumnSum {
    private static final int MIN_WAITING_ROWS = 1024;

    private final int columns;
    private final int keyColumns;
    private long[][] sum; // sorted by key; the count columns are this object's own
    private final List<long[][]> waiting = new ArrayList<>();
    private long waitingRows;
    private int[] at = new int[0];
    private boolean taken;
    private boolean inPlace = true; // whether to try adding in place: no table failed since the last merge

    public RunningColumnSum(int columns, int keyColumns) {
        if (keyColumns < 1 || keyColumns > columns) {
            throw new IllegalArgumentException("tables of " + columns + " columns, " + keyColumns + " key columns");
        }
        this.columns = columns;
        this.keyColumns = keyColumns;
    }

    /**
     * Adds a table of {@code columns} columns sorted by key without duplicates. It is not modified,
     * but it is kept (until the next merge) and its key columns may become the sum's: the caller
     * must not modify it afterwards.
     */
    public void add(long[][] table) {
        if (table.length != columns) {
            throw new IllegalArgumentException("tables of " + columns + " and " + table.length + " columns");
        }
        if (taken) {
            throw new IllegalStateException("the sum was taken already");
        }
        int n = table[0].length;
        if (n == 0) {
            return;
        }
        if (sum == null) {
            sum = new long[columns][];
            for (int col = 0; col < columns; col++) {
                sum[col] = col < keyColumns ? table[col] : table[col].clone();
            }
            return;
        }
        if (at.length < n) {
            at = new int[Math.max(n, at.length * 2)];
        }
        if (inPlace && SortedColumns.addInPlace(sum, table, keyColumns, at)) {
            return;
        }
        inPlace = false; // the sum lacks keys: the tables until the next merge wait without trying
        waiting.add(table);
        waitingRows += n;
        if (waitingRows >= Math.max(MIN_WAITING_ROWS, sum[0].length)) {
            merge();
        }
    }

    /** The sum of every table added (a table of the sum's own: nothing may be added after). */
    public long[][] table() {
        taken = true;
        if (sum == null) {
            return new long[columns][0];
        }
        merge();
        return sum;
    }

    private void merge() {
        if (waiting.isEmpty()) {
            return;
        }
        waiting.add(0, sum);
        sum = SortedColumns.sumAll(waiting, keyColumns);
        waiting.clear();
        waitingRows = 0;
        inPlace = true;
    }
}
