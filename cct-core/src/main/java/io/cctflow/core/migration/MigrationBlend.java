package io.cctflow.core.migration;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import java.util.Objects;

/**
 * The answer for a young deployment: the previous deployment's profile migrated ({@link
 * ProfileMigration}) and blended with the new deployment's own samples so that shares come out in
 * the new deployment's proportions, until the {@link PhaseOut} rule says the new samples suffice.
 *
 * <p><b>Blend.</b> A context of the migrated tree is <em>pooled</em> when the old tree has it and
 * the impact analysis judged it reusable. Let R be the old profile's reusable self samples, N the
 * new deployment's samples and N<sub>r</sub> those of its samples whose leaf context is pooled.
 * Pooled contexts keep their counts as {@link ProfileMigration} merges them (old plus new samples:
 * real counts); every other context has only new samples, and they are multiplied by {@link
 * #scale()} {@code = (R + Nr) / Nr} (rounded per context). Then the pooled part holds {@code Nr /
 * N} of the answer, the share the new deployment's own samples give it, and each other context its
 * own share {@code self / N}: the migrated profile says how the unaffected part is split, the new
 * samples say how large it is now and everything the change affected. Seed 001 merges exact counts
 * entry by entry; sampled profiles of different lengths need this calibration, or a long-lived
 * old deployment would drown the new deployment's changed methods. With {@code Nr = 0} nothing is
 * calibrated: with no new sample the answer is the reusable old part alone (all of it migrated),
 * otherwise the new samples alone (the old profile stands in for none of them). Totals are
 * recomputed from self counts; per-thread counts are not kept.
 *
 * <p><b>Flags.</b> {@link #migratedPart()} has the same node indexes as {@link #tree()} and only
 * the counts that came from the old profile, so any metric computed on both says how much of the
 * figure is migrated; a node with {@code migratedPart().total(n) > 0} is a migrated context.
 *
 * <p>Stateless computation; the result is immutable (its trees must not be changed by callers).
 */
public final class MigrationBlend {
    private final Cct tree;
    private final Cct migratedPart;
    private final long newSamples;
    private final long pooledNewSamples;
    private final long reusableOldSamples;
    private final double scale;
    private final boolean phasedOut;

    private MigrationBlend(Cct tree, Cct migratedPart, long newSamples, long pooledNewSamples,
            long reusableOldSamples, double scale, boolean phasedOut) {
        this.tree = tree;
        this.migratedPart = migratedPart;
        this.newSamples = newSamples;
        this.pooledNewSamples = pooledNewSamples;
        this.reusableOldSamples = reusableOldSamples;
        this.scale = scale;
        this.phasedOut = phasedOut;
    }

    /**
     * When the migrated part is dropped: once the new deployment has {@code minSamples} samples of
     * its own, the answer is those samples alone.
     *
     * <p>The default, {@value #DEFAULT_MIN_SAMPLES}, is where the new samples alone give every share
     * to within one percentage point at 95 % confidence, whatever the share: a share measured from
     * n samples has a binomial standard error of at most {@code sqrt(0.25 / n)}, and {@code 1.96 *
     * sqrt(0.25 / n) <= 0.01} from n = 9,604 on. Past that, the migrated part could only add its
     * own error (the old code's behaviour, which the impact analysis only approximates) to an
     * answer that is already as precise as the tolerance asks.
     *
     * @param minSamples new samples from which the migration is phased out, &ge; 0 (0: never migrate)
     */
    public record PhaseOut(long minSamples) {
        public static final long DEFAULT_MIN_SAMPLES = 9_604;
        public static final PhaseOut DEFAULT = new PhaseOut(DEFAULT_MIN_SAMPLES);

        public PhaseOut {
            if (minSamples < 0) {
                throw new IllegalArgumentException("minSamples must be >= 0: " + minSamples);
            }
        }

        /** Whether {@code newSamples} suffice on their own. */
        public boolean reached(long newSamples) {
            return newSamples >= minSamples;
        }

        @Override
        public String toString() {
            return "phased out from " + minSamples + " new samples (every share then within 0.01 at 95 %: "
                    + "1.96 * sqrt(0.25 / n) <= 0.01)";
        }
    }

    /**
     * @param oldTree the previous deployment's profile
     * @param changes methods changed from the old deployment to the new one
     * @param newTree the new deployment's profile so far; returned as {@link #tree()} when phased out
     */
    public static MigrationBlend of(Cct oldTree, ChangeList changes, ImpactAnalysis mode, Cct newTree, PhaseOut rule) {
        Objects.requireNonNull(newTree, "newTree");
        Objects.requireNonNull(rule, "rule");
        long n = newTree.total(Cct.ROOT);
        if (rule.reached(n)) {
            return new MigrationBlend(newTree, new Cct(), n, 0, 0, 1, true);
        }
        Migration m = ProfileMigration.migrate(oldTree, changes, mode, newTree);
        Cct merged = m.tree();
        int size = merged.size();
        boolean[] pooled = new boolean[size];
        long reusable = m.migratedTotal(Cct.ROOT);
        long pooledNew = 0;
        for (int i = 0; i < size; i++) {
            int o = oldTree.indexOf(merged.id(i));
            pooled[i] = o >= 0 && m.isReusable(o);
            if (pooled[i]) {
                pooledNew += merged.self(i) - m.migratedSelf(i);
            }
        }
        double scale = pooledNew > 0 ? (double) (reusable + pooledNew) / pooledNew : 1;
        boolean keepOld = pooledNew > 0 || n == 0;
        long[] self = new long[size];
        long[] migratedSelf = new long[size];
        for (int i = 0; i < size; i++) {
            long fromOld = keepOld ? m.migratedSelf(i) : 0;
            long fromNew = merged.self(i) - m.migratedSelf(i);
            migratedSelf[i] = fromOld;
            self[i] = pooled[i] ? fromOld + fromNew : Math.round(fromNew * scale);
        }
        return new MigrationBlend(withSelf(merged, self), withSelf(merged, migratedSelf), n, pooledNew,
                keepOld ? reusable : 0, scale, false);
    }

    /** A tree of {@code shape}'s nodes, same indexes, with the given self counts and totals summed up. */
    private static Cct withSelf(Cct shape, long[] self) {
        int size = shape.size();
        Cct out = new Cct(size);
        long[] total = self.clone();
        for (int i = size - 1; i > 0; i--) {
            total[shape.parent(i)] += total[i];
        }
        for (int i = 0; i < size; i++) {
            int node = i == Cct.ROOT ? Cct.ROOT : out.child(shape.parent(i), shape.method(i), shape.callSiteLine(i));
            out.addCounts(node, self[i], total[i]);
        }
        return out;
    }

    /** The answer: blended, or the new tree itself when phased out. */
    public Cct tree() {
        return tree;
    }

    /** {@link #tree()}'s nodes with only the counts that came from the old profile (empty when phased out). */
    public Cct migratedPart() {
        return migratedPart;
    }

    /** Whether {@code node} of {@link #tree()} holds counts of the old profile. */
    public boolean isMigrated(int node) {
        return node < migratedPart.size() && migratedPart.total(node) > 0;
    }

    /** Share of the answer's root total that came from the old profile, 0 to 1. */
    public double migratedShare() {
        long all = tree.total(Cct.ROOT);
        return all == 0 ? 0 : (double) migratedPart.total(Cct.ROOT) / all;
    }

    /** N: the new deployment's own samples. */
    public long newSamples() {
        return newSamples;
    }

    /** N<sub>r</sub>: new samples whose leaf context is pooled with the old profile. */
    public long pooledNewSamples() {
        return pooledNewSamples;
    }

    /** R: the old profile's reusable self samples kept in the answer (0 when phased out or not calibrated). */
    public long reusableOldSamples() {
        return reusableOldSamples;
    }

    /** The factor the counts of contexts not pooled are multiplied by; 1 when phased out. */
    public double scale() {
        return scale;
    }

    public boolean phasedOut() {
        return phasedOut;
    }
}
