package io.cctflow.core.migration;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import java.util.Arrays;
import java.util.Objects;

/**
 * Migrates the old deployment's profile to the new one (seed 001 Sect. 4.1: discrimination,
 * regeneration, merging).
 *
 * <p>Discrimination: {@link ImpactAnalysis} marks the old tree's affected nodes; the others are
 * reusable. Merging: the migrated tree has every context of the new partial tree with its counts,
 * plus the self counts of the reusable old nodes. Affected old nodes contribute no counts, so
 * their numbers come only from the new partial profile; they appear as (zero-count) structure only
 * when a reusable node lies below them. Totals are recomputed from self counts (a sample is counted
 * once on every node of its path), so for trees built by {@link Cct#addStack} the result with no
 * affected node is exactly the sum of the two trees.
 *
 * <p>Stateless and thread-safe; the input trees are only read and must not change during the call.
 */
public final class ProfileMigration {
    private ProfileMigration() {
    }

    /**
     * @param oldTree the previous deployment's profile
     * @param changes methods changed from the old to the new deployment
     * @param mode the impact analysis; {@link ImpactAnalysis#BA} also reads call edges of
     *     {@code newPartialTree}
     * @param newPartialTree the new deployment's profile so far (may be empty, not null)
     */
    public static Migration migrate(Cct oldTree, ChangeList changes, ImpactAnalysis mode, Cct newPartialTree) {
        Objects.requireNonNull(oldTree, "oldTree");
        Objects.requireNonNull(changes, "changes");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(newPartialTree, "newPartialTree");

        boolean[] affected = mode.affected(oldTree, changes, newPartialTree);
        int oldSize = oldTree.size();
        boolean[] reusable = new boolean[oldSize];
        for (int n = 0; n < oldSize; n++) {
            reusable[n] = !affected[n];
        }
        // an affected node is kept only as the path to a reusable descendant; children have larger
        // indexes than parents, so one backward pass propagates "needed" to every ancestor
        boolean[] needed = reusable.clone();
        for (int n = oldSize - 1; n > 0; n--) {
            if (needed[n]) {
                needed[oldTree.parent(n)] = true;
            }
        }

        Cct out = new Cct(oldSize + newPartialTree.size());
        long[] oldSelf = new long[oldSize + newPartialTree.size()];
        long[] newSelf = new long[oldSelf.length];
        int[] map = new int[oldSize];
        for (int n = 0; n < oldSize; n++) {
            if (!needed[n]) {
                continue;
            }
            int o = n == Cct.ROOT ? Cct.ROOT : out.child(map[oldTree.parent(n)], oldTree.method(n), oldTree.callSiteLine(n));
            map[n] = o;
            if (reusable[n]) {
                oldSelf[o] += oldTree.self(n);
            }
        }
        int[] newMap = new int[newPartialTree.size()];
        for (int n = 0; n < newPartialTree.size(); n++) {
            int o = n == Cct.ROOT ? Cct.ROOT
                    : out.child(newMap[newPartialTree.parent(n)], newPartialTree.method(n), newPartialTree.callSiteLine(n));
            newMap[n] = o;
            newSelf[o] += newPartialTree.self(n);
        }

        int size = out.size();
        long[] migratedSelf = Arrays.copyOf(oldSelf, size);
        long[] migratedTotal = Arrays.copyOf(oldSelf, size);
        long[] total = new long[size];
        for (int n = 0; n < size; n++) {
            total[n] = oldSelf[n] + newSelf[n];
        }
        for (int n = size - 1; n > 0; n--) {
            int p = out.parent(n);
            total[p] += total[n];
            migratedTotal[p] += migratedTotal[n];
        }
        for (int n = 0; n < size; n++) {
            out.addCounts(n, oldSelf[n] + newSelf[n], total[n]);
        }
        return new Migration(oldTree, mode, reusable, out, migratedSelf, migratedTotal);
    }
}
