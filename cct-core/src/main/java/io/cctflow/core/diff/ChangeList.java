package io.cctflow.core.diff;

import java.util.Arrays;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Method-level changes between the first (old) and second (new) revision (seed 000 Sect. 3.2), as
 * method ids. Renamed methods are not modelled: PARCS found none, and a rename that changes the
 * signature or class is a deletion plus an addition.
 *
 * <p>Immutable and thread-safe.
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

    /**
     * The change list of two code manifests: a method is <em>added</em> if only the new revision
     * has it, <em>deleted</em> if only the old one has it, <em>modified</em> if both have it with
     * different bytecode fingerprints. The manifests only know the methods their instances loaded,
     * so a method the old deployment never loaded counts as added (and one the new deployment has
     * not loaded yet as deleted): compare manifests of instances that ran comparable work.
     *
     * @param oldFingerprints fingerprint by method signature (as {@link io.cctflow.core.MethodId#signature}
     *     builds it) of the old revision; not null, may be empty
     * @param newFingerprints the same for the new revision
     * @param methodIdOf the id of a signature, e.g. {@link io.cctflow.core.MethodId#ofSignature}
     */
    public static ChangeList between(Map<String, Long> oldFingerprints, Map<String, Long> newFingerprints,
            ToLongFunction<String> methodIdOf) {
        long[] added = new long[newFingerprints.size()];
        long[] deleted = new long[oldFingerprints.size()];
        long[] modified = new long[Math.min(oldFingerprints.size(), newFingerprints.size())];
        int a = 0;
        int d = 0;
        int m = 0;
        for (Map.Entry<String, Long> e : newFingerprints.entrySet()) {
            Long before = oldFingerprints.get(e.getKey());
            if (before == null) {
                added[a++] = methodIdOf.applyAsLong(e.getKey());
            } else if (!before.equals(e.getValue())) {
                modified[m++] = methodIdOf.applyAsLong(e.getKey());
            }
        }
        for (String signature : oldFingerprints.keySet()) {
            if (!newFingerprints.containsKey(signature)) {
                deleted[d++] = methodIdOf.applyAsLong(signature);
            }
        }
        return new ChangeList(Arrays.copyOf(added, a), Arrays.copyOf(deleted, d), Arrays.copyOf(modified, m));
    }

    /** Added method ids, ascending; a copy. */
    public long[] added() {
        return added.clone();
    }

    /** Deleted method ids, ascending; a copy. */
    public long[] deleted() {
        return deleted.clone();
    }

    /** Modified method ids, ascending; a copy. */
    public long[] modified() {
        return modified.clone();
    }

    /** True when nothing was added, deleted or modified. */
    public boolean isEmpty() {
        return added.length == 0 && deleted.length == 0 && modified.length == 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChangeList other && Arrays.equals(added, other.added)
                && Arrays.equals(deleted, other.deleted) && Arrays.equals(modified, other.modified);
    }

    @Override
    public int hashCode() {
        return (Arrays.hashCode(added) * 31 + Arrays.hashCode(deleted)) * 31 + Arrays.hashCode(modified);
    }

    @Override
    public String toString() {
        return "ChangeList[added=" + added.length + ", deleted=" + deleted.length + ", modified="
                + modified.length + "]";
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
