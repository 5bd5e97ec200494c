package io.cctflow.core.diff;

import java.util.Arrays;

/**
 * Method-level changes between the first (old) and second (new) revision (seed 000 Sect. 3.2), as
 * method ids. Renamed methods are not modelled: PARCS found none, and a rename that changes the
 * signature or class is a deletion plus an addition.
 */
public final class ChangeList {
    /** No code changes (two instances or two windows of one deployment). */
    public static final ChangeList NONE = new ChangeList(new long[0], new long[0], new long[0]);

    private final long[] added;
    private final long[] deleted;
    private final long[] modified;

    public ChangeList(long[] added, long[] deleted, long[] modified) {
        this.added = sorted(added);
        this.deleted = sorted(deleted);
        this.modified = sorted(modified);
    }

    private static long[] sorted(long[] ids) {
        long[] copy = ids.clone();
        Arrays.sort(copy);
        return copy;
    }

    public boolean isAdded(long method) {
        return Arrays.binarySearch(added, method) >= 0;
    }

    public boolean isDeleted(long method) {
        return Arrays.binarySearch(deleted, method) >= 0;
    }

    public boolean isModified(long method) {
        return Arrays.binarySearch(modified, method) >= 0;
    }
}
