package io.cctflow.core.migration;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import java.util.Objects;

/**
 * The answer for a young deployment: the previous deployment's profile migrated ({@link
 * ProfileMigration}) and blended with the new deployment's own samples so that shares come out in
 * the new deployment's proportions, each context's migrated part weighted by precision and dropped
 * once the new samples suffice for it ({@link MigrationWeights}).
 *
 * <p><b>Blend.</b> A context of the migrated tree is <em>pooled</em> when the old tree has it and
 * the impact analysis judged it reusable. Let R be the old profile's reusable self samples, N the
 * new deployment's samples and N<sub>r</sub> those of its samples whose leaf context is pooled; a
 * pooled context has o old and n new self samples. Its blended share within the pooled part is
 * {@code q = w o / R + (1 - w) n / Nr}, w its {@link MigrationWeights#migratedWeight} (0 once
 * dropped); the q of all pooled contexts are rescaled to add up to 1, and the pooled part holds
 * {@code Nr / N} of the answer, the share the new deployment's own samples give it. Every other
 * context has only new samples and its own share {@code n / N}. Counts are in the units of
 * {@code R + Nr} pooled samples: a pooled context has {@code (R + Nr) q / sum(q)}, of which {@code
 * (R + Nr) w (o / R) / sum(q)} migrated, and every other context {@code n} times {@link #scale()}
 * {@code = (R + Nr) / Nr} (each rounded per context). With the between-deployment variance 0 and
 * no context dropped, w = R / (R + Nr) and a pooled context has exactly {@code o + n}: every
 * sample counts once. So the migrated profile says how the unaffected part is split as far as it
 * agrees with the new samples, the new samples say how large it is now and everything the change
 * affected. When every pooled context with samples is dropped the migration is {@link
 * #phasedOut()} and the answer is the new tree itself. With {@code Nr = 0} or {@code R = 0}
 * nothing is weighed: with no new sample the answer is the reusable old part alone (all of it
 * migrated), otherwise the new samples alone. Totals are recomputed from self counts; per-thread
 * counts are not kept.
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
    private final double betweenDeploymentVariance;
    private final int blendedContexts;
    private final int droppedContexts;
    private final boolean phasedOut;

    private MigrationBlend(Cct tree, Cct migratedPart, long newSamples, long pooledNewSamples,
            long reusableOldSamples, double scale, double betweenDeploymentVariance, int blendedContexts,
            int droppedContexts, boolean phasedOut) {
        this.tree = tree;
        this.migratedPart = migratedPart;
        this.newSamples = newSamples;
        this.pooledNewSamples = pooledNewSamples;
        this.reusableOldSamples = reusableOldSamples;
        this.scale = scale;
        this.betweenDeploymentVariance = betweenDeploymentVariance;
        this.blendedContexts = blendedContexts;
        this.droppedContexts = droppedContexts;
        this.phasedOut = phasedOut;
    }

    /**
     * @param oldTree the previous deployment's profile
     * @param changes methods changed from the old deployment to the new one
     * @param newTree the new deployment's profile so far; returned as {@link #tree()} when phased out
     */
    public static MigrationBlend of(Cct oldTree, ChangeList changes, ImpactAnalysis mode, Cct newTree) {
        Objects.requireNonNull(newTree, "newTree");
        long n = newTree.total(Cct.ROOT);
        Migration m = ProfileMigration.migrate(oldTree, changes, mode, newTree);
        Cct merged = m.tree();
        int size = merged.size();
        boolean[] pooled = new boolean[size];
        long[] fromOld = new long[size];
        long[] fromNew = new long[size];
        long reusable = m.migratedTotal(Cct.ROOT);
        long pooledNew = 0;
        for (int i = 0; i < size; i++) {
            int o = oldTree.indexOf(merged.id(i));
            pooled[i] = o >= 0 && m.isReusable(o);
            fromOld[i] = m.migratedSelf(i);
            fromNew[i] = merged.self(i) - fromOld[i];
            if (pooled[i]) {
                pooledNew += fromNew[i];
            }
        }
        if (n == 0) { // nothing measured yet: the reusable old part alone
            return new MigrationBlend(withSelf(merged, fromOld), withSelf(merged, fromOld), 0, 0, reusable, 1, 0, 0, 0,
                    false);
        }
        if (pooledNew == 0 || reusable == 0) { // nothing to weigh the old profile against
            return new MigrationBlend(withSelf(merged, fromNew), withSelf(merged, new long[size]), n, pooledNew, 0, 1, 0, 0,
                    0, false);
        }
        double tau2 = MigrationWeights.betweenDeploymentVariance(fromOld, fromNew, pooled, reusable, pooledNew);
        double[] weight = new double[size];
        double sumQ = 0;
        int blended = 0;
        int dropped = 0;
        for (int i = 0; i < size; i++) {
            if (!pooled[i] || fromOld[i] + fromNew[i] == 0) {
                continue;
            }
            weight[i] = MigrationWeights.migratedWeight(fromOld[i], fromNew[i], reusable, pooledNew, tau2);
            if (weight[i] > 0) {
                blended++;
            } else {
                dropped++;
            }
            sumQ += weight[i] * fromOld[i] / reusable + (1 - weight[i]) * fromNew[i] / pooledNew;
        }
        if (blended == 0) {
            return new MigrationBlend(newTree, new Cct(), n, pooledNew, 0, 1, tau2, 0, dropped, true);
        }
        double units = reusable + pooledNew;
        double scale = units / pooledNew;
        long[] self = new long[size];
        long[] migratedSelf = new long[size];
        for (int i = 0; i < size; i++) {
            if (pooled[i]) {
                double old = units * weight[i] * fromOld[i] / reusable / sumQ;
                double own = units * (1 - weight[i]) * fromNew[i] / pooledNew / sumQ;
                migratedSelf[i] = Math.round(old);
                self[i] = Math.round(old + own);
            } else {
                self[i] = Math.round(fromNew[i] * scale);
            }
        }
        return new MigrationBlend(withSelf(merged, self), withSelf(merged, migratedSelf), n, pooledNew, reusable,
                scale, tau2, blended, dropped, false);
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

    /** R: the old profile's reusable self samples the answer weighed (0 when phased out or not calibrated). */
    public long reusableOldSamples() {
        return reusableOldSamples;
    }

    /** The factor the counts of contexts not pooled are multiplied by; 1 when phased out. */
    public double scale() {
        return scale;
    }

    /** {@link MigrationWeights#betweenDeploymentVariance}, tau2; 0 when nothing was weighed. */
    public double betweenDeploymentVariance() {
        return betweenDeploymentVariance;
    }

    /** Pooled contexts with samples whose answer keeps a migrated part. */
    public int blendedContexts() {
        return blendedContexts;
    }

    /** Pooled contexts with samples whose migrated part was dropped: the new samples suffice there. */
    public int droppedContexts() {
        return droppedContexts;
    }

    /** Whether every pooled context was dropped, so the answer is the new tree alone. */
    public boolean phasedOut() {
        return phasedOut;
    }
}
