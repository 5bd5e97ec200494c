package io.cctflow.core.migration;

import io.cctflow.core.Cct;
import java.util.Objects;

/**
 * The seed 001 Sect. 5 metrics of one migration, measured against the real new profile.
 *
 * <p>An <em>entry</em> (seed 001: "each entry refers to one unit in the profiles") is a calling
 * context: a non-root node, matched across trees by its node id (a pure function of the path, call-site
 * lines included: across releases, whose lines move, measure {@link MethodContexts} of both trees). Its
 * value is its inclusive share, {@code total(node) / total(ROOT)}; shares, not raw counts, because
 * sampled profiles of different lengths are never equal in counts. A value is <em>correct</em>
 * when the {@link ShareTolerance} accepts it against the reference value; a context missing from a
 * tree has share 0. Seed 001 compares exact loop trip counts; the tolerance is what sampling adds,
 * and {@code 0} gives the paper's exact comparison.
 *
 * <ul>
 *   <li>{@code acc}: "the ratio between the number of the entries in the generated profile that
 *       are correct and the total number of entries in the real profile" = correct reference
 *       entries of the migrated tree / reference entries.
 *   <li>Discrimination over the old tree's entries: U = judged reusable, Ū = judged affected; an
 *       old entry is <em>truly reusable</em> when its old value is correct for the reference. TP =
 *       U ∩ truly reusable, FP = U \ TP, FN = Ū ∩ truly reusable, TN = Ū \ FN.
 *   <li>{@code precision} = |TP| / |U|; {@code recall} = |TP| / (|TP| + |FN|); {@code fMeasure} =
 *       2 · precision · recall / (precision + recall) (the paper's text prints "(2-precision-recall)"
 *       where the products lost their dots; the harmonic mean is what Table 2 shows).
 * </ul>
 *
 * <p>Empty denominators: precision is 1 when U is empty and recall is 1 when nothing is truly
 * reusable (nothing claimed wrongly / nothing missed; Table 2 reports precision 1.0 with recall
 * 0.0 for BA when nothing is reused), F is 0 when precision + recall is 0, acc is 1 for an empty
 * reference. Time saved (TS) is {@link TimeSaved}; {@link MigrationReport} has both.
 */
public record MigrationQuality(double acc, double precision, double recall, double fMeasure,
        int truePositives, int falsePositives, int falseNegatives, int trueNegatives,
        int correctEntries, int referenceEntries) {

    /**
     * Measures {@code migration} against {@code reference}, the real profile of the new version.
     *
     * @param tolerance largest absolute difference of inclusive shares still counted as correct, ≥ 0
     *     ({@link ShareTolerance#absolute})
     */
    public static MigrationQuality of(Migration migration, Cct reference, double tolerance) {
        return of(migration, reference, ShareTolerance.absolute(tolerance));
    }

    /** Measures {@code migration} against {@code reference}, the real profile of the new version. */
    public static MigrationQuality of(Migration migration, Cct reference, ShareTolerance tolerance) {
        Objects.requireNonNull(migration, "migration");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(tolerance, "tolerance");
        Cct migrated = migration.tree();
        long samples = reference.total(Cct.ROOT);
        int correct = 0;
        for (int n = 1; n < reference.size(); n++) {
            if (tolerance.accepts(share(migrated, migrated.indexOf(reference.id(n))), share(reference, n), samples)) {
                correct++;
            }
        }
        Cct old = migration.oldTree();
        int tp = 0;
        int fp = 0;
        int fn = 0;
        int tn = 0;
        for (int n = 1; n < old.size(); n++) {
            boolean trulyReusable = tolerance.accepts(share(old, n), share(reference, reference.indexOf(old.id(n))), samples);
            if (migration.isReusable(n)) {
                if (trulyReusable) {
                    tp++;
                } else {
                    fp++;
                }
            } else if (trulyReusable) {
                fn++;
            } else {
                tn++;
            }
        }
        return fromCounts(tp, fp, fn, tn, correct, reference.size() - 1);
    }

    /** The metrics from the four discrimination counts and the accuracy counts (seed 001 Sect. 5). */
    public static MigrationQuality fromCounts(int tp, int fp, int fn, int tn, int correctEntries, int referenceEntries) {
        double acc = referenceEntries == 0 ? 1.0 : (double) correctEntries / referenceEntries;
        double precision = tp + fp == 0 ? 1.0 : (double) tp / (tp + fp);
        double recall = tp + fn == 0 ? 1.0 : (double) tp / (tp + fn);
        double f = precision + recall == 0 ? 0.0 : 2 * precision * recall / (precision + recall);
        return new MigrationQuality(acc, precision, recall, f, tp, fp, fn, tn, correctEntries, referenceEntries);
    }

    /** Inclusive share of {@code node} in {@code tree}; 0 for a missing node (-1) or an empty tree. */
    static double share(Cct tree, int node) {
        if (node < 0 || tree.total(Cct.ROOT) == 0) {
            return 0.0;
        }
        return (double) tree.total(node) / tree.total(Cct.ROOT);
    }
}
