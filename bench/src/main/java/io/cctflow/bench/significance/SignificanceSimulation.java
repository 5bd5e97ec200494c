package io.cctflow.bench.significance;

import io.cctflow.core.diff.stats.Change;
import io.cctflow.core.diff.stats.Measure;
import io.cctflow.core.diff.stats.MethodChange;
import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.diff.stats.MethodSamples;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Pairs of sampled profiles compared with {@link MethodComparison}: A/A pairs (both sides from one
 * profile) for the false-positive rate, A/B pairs (side B with one method slowed by a known amount)
 * for the detection rate. Deterministic for a seed. Stateless.
 */
public final class SignificanceSimulation {
    static final int STACKS = 300;
    static final int METHODS = 120;

    private SignificanceSimulation() {
    }

    /**
     * @param replicatesA replicates of side A; the side's {@code samples} are split evenly between them
     * @param replicatesB replicates of side B, likewise
     * @param jitter log-sd of each replicate's weights (0: pure multinomial)
     */
    public record Setup(int samples, int replicatesA, int replicatesB, double jitter) {
        /** As many replicates on both sides. */
        public Setup(int samples, int replicates, double jitter) {
            this(samples, replicates, replicates, jitter);
        }
    }

    /**
     * Fraction of A/A pairs (a new random profile each) in which any method is significant. Where
     * the comparison withholds its labels (no replicates on either side), what the binomial model
     * would have labelled: any q-value at most the level.
     */
    public static double anySignificantRate(Setup setup, int pairs, long seed) {
        return anySignificantRate(setup, pairs, seed, false);
    }

    /**
     * {@link #anySignificantRate(Setup, int, long)}, with {@code pooled} summing each side's
     * replicates into one before the comparison (the binomial model applied to over-dispersed data).
     */
    public static double anySignificantRate(Setup setup, int pairs, long seed, boolean pooled) {
        Random random = new Random(seed);
        int flagged = 0;
        for (int p = 0; p < pairs; p++) {
            SampledProfile profile = SampledProfile.random(random, STACKS, METHODS);
            List<MethodSamples> a = side(profile, setup.samples(), setup.replicatesA(), setup.jitter(), random);
            List<MethodSamples> b = side(profile, setup.samples(), setup.replicatesB(), setup.jitter(), random);
            if (pooled) {
                a = List.of(MethodComparison.sum(a));
                b = List.of(MethodComparison.sum(b));
            }
            MethodComparison.Result r = MethodComparison.compare(a, b, MethodComparison.DEFAULT_LEVEL);
            flagged += (r.noise().labelsWithheld() ? r.anyBelowLevel() : r.anySignificant()) ? 1 : 0;
        }
        return (double) flagged / pairs;
    }

    /** Outcome of A/B pairs. */
    public record Detection(double detected, double rankedFirst, double targetShare) {
    }

    /**
     * A/B pairs: the method with a method time nearest {@code share} gets {@code 1 + effect} times
     * its work on side B. Detected: its method time is significant and labelled {@code REGRESSION}
     * (where labels are withheld: its q-value at most the level and its share up, the binomial
     * model's verdict).
     */
    public static Detection detectionRate(Setup setup, double share, double effect, int pairs, long seed) {
        Random random = new Random(seed);
        int detected = 0;
        int first = 0;
        double shares = 0;
        for (int p = 0; p < pairs; p++) {
            SampledProfile before = SampledProfile.random(random, STACKS, METHODS);
            int target = before.methodWithShare(share);
            shares += before.methodTimes()[target];
            SampledProfile after = before.slowed(target, effect);
            MethodComparison.Result r = MethodComparison.compare(
                    side(before, setup.samples(), setup.replicatesA(), setup.jitter(), random),
                    side(after, setup.samples(), setup.replicatesB(), setup.jitter(), random),
                    MethodComparison.DEFAULT_LEVEL);
            long id = SampledProfile.id(target);
            Measure hit = r.methods().stream().filter(c -> c.method() == id).findFirst().orElseThrow().methodTime();
            boolean binomialVerdict = hit.label() == Change.WITHHELD && hit.qValue() <= r.level()
                    && hit.change().delta() > 0;
            if (hit.label() == Change.REGRESSION || binomialVerdict) {
                detected++;
                first += r.methods().get(0).method() == id ? 1 : 0;
            }
        }
        return new Detection((double) detected / pairs, (double) first / pairs, shares / pairs);
    }

    /**
     * Outcome of A/B pairs for the methods the slowdown leaves alone.
     *
     * @param anyFlagged fraction of pairs in which any untouched method is significant
     * @param falseDiscoveries mean over pairs of untouched methods among the significant ones (0 when none is)
     * @param untouched mean number of untouched methods with samples per pair
     */
    public record Dilution(double anyFlagged, double falseDiscoveries, double untouched, double targetFound) {
    }

    /**
     * A/B pairs as in {@link #detectionRate}, the method nearest {@code share} (of method time, or
     * with {@code selfOnly} of self time) slowed ({@link SampledProfile#slowed(int, double,
     * boolean)}): how often methods on none of the changed stacks (their work unchanged, only their
     * shares diluted) are significant.
     */
    public static Dilution dilution(Setup setup, double share, double effect, boolean selfOnly, int pairs,
            long seed) {
        Random random = new Random(seed);
        int flagged = 0;
        double proportion = 0;
        double untouchedCount = 0;
        int found = 0;
        for (int p = 0; p < pairs; p++) {
            SampledProfile before = SampledProfile.random(random, STACKS, METHODS);
            int target = selfOnly ? before.methodWithSelfShare(share) : before.methodWithShare(share);
            boolean[] untouched = before.untouchedBy(target, selfOnly);
            MethodComparison.Result r = MethodComparison.compare(
                    side(before, setup.samples(), setup.replicatesA(), setup.jitter(), random),
                    side(before.slowed(target, effect, selfOnly), setup.samples(), setup.replicatesB(), setup.jitter(), random),
                    MethodComparison.DEFAULT_LEVEL);
            int wrong = 0;
            for (MethodChange c : r.methods()) {
                boolean alone = untouched[(int) c.method() - 1];
                untouchedCount += alone ? 1 : 0;
                wrong += alone && c.significant() ? 1 : 0;
                found += c.method() == SampledProfile.id(target) && c.significant() ? 1 : 0;
            }
            flagged += wrong > 0 ? 1 : 0;
            proportion += r.significant() == 0 ? 0 : (double) wrong / r.significant();
        }
        return new Dilution((double) flagged / pairs, proportion / pairs, untouchedCount / pairs,
                (double) found / pairs);
    }

    static List<MethodSamples> side(SampledProfile profile, int samples, int replicates, double jitter,
            Random random) {
        List<MethodSamples> out = new ArrayList<>(replicates);
        for (int r = 0; r < replicates; r++) {
            out.add(profile.sample(random, samples / replicates, jitter));
        }
        return out;
    }
}
