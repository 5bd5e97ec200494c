package io.cctflow.core.migration;

import io.cctflow.core.Cct;

/**
 * The result of {@link ProfileMigration#migrate}: the migrated tree, and for each of its nodes how
 * much of its counts came from the old profile, so a UI can mark migrated numbers and every number
 * stays traceable to sample counts.
 *
 * <p>Immutable once built, except that {@link #tree()} and {@link #oldTree()} are the live trees:
 * the caller must not change them while it reads this result. Not thread-safe beyond that.
 */
public final class Migration {
    private final Cct oldTree;
    private final ImpactAnalysis mode;
    private final boolean[] reusable;
    private final Cct tree;
    private final long[] migratedSelf;
    private final long[] migratedTotal;

    Migration(Cct oldTree, ImpactAnalysis mode, boolean[] reusable, Cct tree, long[] migratedSelf,
            long[] migratedTotal) {
        this.oldTree = oldTree;
        this.mode = mode;
        this.reusable = reusable;
        this.tree = tree;
        this.migratedSelf = migratedSelf;
        this.migratedTotal = migratedTotal;
    }

    /** The migrated tree (a new {@link Cct}, owned by this result). */
    public Cct tree() {
        return tree;
    }

    /** The old profile the migration read (not copied). */
    public Cct oldTree() {
        return oldTree;
    }

    public ImpactAnalysis mode() {
        return mode;
    }

    /** Whether node {@code oldNode} of {@link #oldTree()} was judged reusable (not affected). */
    public boolean isReusable(int oldNode) {
        return reusable[oldNode];
    }

    /** Number of reusable non-root nodes of the old tree (|U| in seed 001 Sect. 5). */
    public int reusableCount() {
        int c = 0;
        for (int n = 1; n < reusable.length; n++) {
            if (reusable[n]) {
                c++;
            }
        }
        return c;
    }

    /** Part of {@code tree().self(node)} that came from the old profile. */
    public long migratedSelf(int node) {
        return migratedSelf[node];
    }

    /** Part of {@code tree().total(node)} that came from the old profile. */
    public long migratedTotal(int node) {
        return migratedTotal[node];
    }

    /** Whether any count of {@code node} in {@link #tree()} came from the old profile. */
    public boolean isMigrated(int node) {
        return migratedTotal[node] > 0;
    }
}
