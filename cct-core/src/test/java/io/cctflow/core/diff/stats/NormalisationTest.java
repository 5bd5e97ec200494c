package io.cctflow.core.diff.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class NormalisationTest {

    @Property(tries = 500)
    void factorsAreTheTmmFormulaComputedDirectly(@ForAll long seed, @ForAll @IntRange(min = 2, max = 5) int replicates,
            @ForAll @IntRange(min = 0, max = 40) int methods) {
        Random random = new Random(seed);
        long[][] counts = new long[replicates][methods];
        long[] samples = new long[replicates];
        int range = 1 + random.nextInt(random.nextBoolean() ? 5 : 500); // small ranges: many ties and zeros
        for (int j = 0; j < replicates; j++) {
            for (int i = 0; i < methods; i++) {
                counts[j][i] = random.nextInt(range);
                samples[j] += counts[j][i];
            }
            samples[j] += random.nextInt(3);
        }
        double[] expected = reference(counts, samples);
        double[] actual = Normalisation.factors(counts, samples);
        for (int j = 0; j < replicates; j++) {
            assertThat(actual[j]).as("replicate %d of seed %d", j, seed).isCloseTo(expected[j], within(1e-12 * expected[j]));
        }
    }

    @Property(tries = 300)
    void theUnchangedBulkComesOutEqualWhenOneMethodGrows(@ForAll long seed,
            @ForAll @IntRange(min = 4, max = 60) int methods) {
        Random random = new Random(seed);
        long[] a = new long[methods];
        for (int i = 0; i < methods; i++) {
            a[i] = 1 + random.nextInt(1000);
        }
        long[] b = a.clone();
        int changed = random.nextInt(methods);
        b[changed] *= 2 + random.nextInt(9);
        long na = sum(a);
        long nb = sum(b);
        // TMM itself (factors() thins the deeper side first, which adds noise): every unchanged
        // method's normalised share is the same on both sides
        double f = Normalisation.tmm(b, nb, a, na);
        assertThat(nb * f).as("seed %d", seed).isCloseTo(na, within(1e-9 * na));
    }

    @Test
    void unequalDepthsDoNotBiasTheFactors() {
        // A/A: one sparse profile (120 methods, most of expected count below 1), side a 2 replicates
        // of 250 samples, side b 3 of 167: TMM without thinning makes b's factors about 12 % higher
        // than a's (the shallower replicates' zeros are dropped, their ones overstate); thinned,
        // the two sides' factors agree on average
        Random random = new Random(29);
        double thinned = 0;
        double plain = 0;
        int draws = 300;
        for (int d = 0; d < draws; d++) {
            double[] weights = new double[120];
            for (int i = 0; i < weights.length; i++) {
                weights[i] = Math.exp(1.5 * random.nextGaussian());
            }
            long[][] counts = new long[5][];
            long[] samples = new long[5];
            for (int j = 0; j < 5; j++) {
                samples[j] = j < 2 ? 250 : 167;
                counts[j] = multinomial(random, weights, samples[j]);
            }
            thinned += sideRatio(Normalisation.factors(counts, samples)) / draws;
            plain += sideRatio(withoutThinning(counts, samples)) / draws;
        }
        assertThat(plain).as("TMM without thinning").isGreaterThan(0.07);
        assertThat(thinned).as("thinned to equal depth (%s without)", plain).isCloseTo(0, within(0.02));
    }

    /** log of side b's (replicates 2..4) geometric-mean factor over side a's (0..1). */
    private static double sideRatio(double[] f) {
        return (Math.log(f[2]) + Math.log(f[3]) + Math.log(f[4])) / 3 - (Math.log(f[0]) + Math.log(f[1])) / 2;
    }

    private static double[] withoutThinning(long[][] counts, long[] samples) {
        double[] f = new double[counts.length];
        int ref = referenceColumn(counts);
        double logMean = 0;
        for (int j = 0; j < counts.length; j++) {
            f[j] = tmm(counts[j], samples[j], counts[ref], samples[ref]);
            logMean += Math.log(f[j]) / counts.length;
        }
        for (int j = 0; j < counts.length; j++) {
            f[j] /= Math.exp(logMean);
        }
        return f;
    }

    private static long[] multinomial(Random random, double[] weights, long samples) {
        double total = 0;
        for (double w : weights) {
            total += w;
        }
        long[] out = new long[weights.length];
        for (long s = 0; s < samples; s++) {
            double u = random.nextDouble() * total;
            int i = 0;
            while (i < weights.length - 1 && u >= weights[i]) {
                u -= weights[i++];
            }
            out[i]++;
        }
        return out;
    }

    @Test
    void replicatesInProportionGetFactorOne() {
        // TMM itself at any depths; factors() at equal depths (at unequal ones it thins first, and
        // the thinned counts are in proportion only up to the draws)
        assertThat(Normalisation.tmm(new long[] {20, 40, 60, 0}, 120, new long[] {5, 10, 15, 0}, 30)).isEqualTo(1);
        long[][] counts = {{10, 20, 30, 0}, {10, 20, 30, 0}, {10, 20, 30, 0}};
        assertThat(Normalisation.factors(counts, new long[] {60, 60, 60})).containsExactly(1, 1, 1);
        assertThat(Normalisation.factors(new long[][] {{3, 4}}, new long[] {7})).containsExactly(1);
    }

    /**
     * edgeR's calcNormFactors(method = "TMM") as written in R: the reference column by the largest
     * sum of square roots, per column the trimmed, variance-weighted mean of the M-values over rows
     * with counts in both, R's average ranks, and the geometric-mean scaling; where the average ranks
     * of ties leave no row inside the trims, ranks by position (our departure from edgeR's 1). And
     * our other departure: of a column and the reference, the deeper thinned to the other's samples
     * first (the samples outside every row thinned as one more row, then dropped), by the same draws.
     */
    static double[] reference(long[][] counts, long[] samples) {
        int r = counts.length;
        int refColumn = referenceColumn(counts);
        double[] f = new double[r];
        for (int j = 0; j < r; j++) {
            long nO = samples[j];
            long nR = samples[refColumn];
            if (nO == nR || nO == 0 || nR == 0) {
                f[j] = nO == 0 ? 1 : tmm(counts[j], nO, counts[refColumn], nR);
                continue;
            }
            boolean obsDeeper = nO > nR;
            long[] deeper = java.util.Arrays.copyOf(obsDeeper ? counts[j] : counts[refColumn], counts[j].length + 1);
            deeper[counts[j].length] = (obsDeeper ? nO : nR) - sum(obsDeeper ? counts[j] : counts[refColumn]);
            long[] thinned = Thinning.thin(deeper, (double) Math.min(nO, nR) / Math.max(nO, nR));
            long depth = sum(thinned);
            long[] kept = java.util.Arrays.copyOf(thinned, counts[j].length);
            f[j] = depth == 0 ? 1 : obsDeeper ? tmm(kept, depth, counts[refColumn], nR) : tmm(counts[j], nO, kept, depth);
        }
        double logMean = 0;
        for (double v : f) {
            logMean += Math.log(v) / r;
        }
        for (int j = 0; j < r; j++) {
            f[j] /= Math.exp(logMean);
        }
        return f;
    }

    private static double tmm(long[] obs, long nO, long[] ref, long nR) {
        int m = obs.length;
        int n = 0;
        for (int i = 0; i < m; i++) {
            n += obs[i] > 0 && ref[i] > 0 ? 1 : 0;
        }
        double[] logR = new double[n];
        double[] absE = new double[n];
        double[] v = new double[n];
        int k = 0;
        for (int i = 0; i < m; i++) {
            if (obs[i] > 0 && ref[i] > 0) {
                logR[k] = Math.log(((double) obs[i] / nO) / ((double) ref[i] / nR)) / Math.log(2);
                // (log2 + log2) / 2, as R computes it: ties between rows must stay ties
                absE[k] = (Math.log((double) obs[i] / nO) / Math.log(2) + Math.log((double) ref[i] / nR) / Math.log(2)) / 2;
                v[k] = ((double) nO - obs[i]) / nO / obs[i] + ((double) nR - ref[i]) / nR / ref[i];
                k++;
            }
        }
        double max = 0;
        for (double x : logR) {
            max = Math.max(max, Math.abs(x));
        }
        if (max < 1e-6) {
            return 1;
        }
        double f = trimmedMean(logR, absE, v, true);
        if (Double.isNaN(f)) {
            f = trimmedMean(logR, absE, v, false);
        }
        return Double.isNaN(f) ? 1 : Math.pow(2, f);
    }

    private static double trimmedMean(double[] logR, double[] absE, double[] v, boolean averageTies) {
        int n = logR.length;
        double loL = Math.floor(n * 0.3) + 1;
        double hiL = n + 1 - loL;
        double loS = Math.floor(n * 0.05) + 1;
        double hiS = n + 1 - loS;
        double num = 0;
        double den = 0;
        for (int i = 0; i < n; i++) {
            double rl = rank(logR, i, averageTies);
            double rs = rank(absE, i, averageTies);
            if (rl >= loL && rl <= hiL && rs >= loS && rs <= hiS) {
                num += logR[i] / v[i];
                den += 1 / v[i];
            }
        }
        return num / den;
    }

    /**
     * R's rank(ties = "average") of element i: the values below it plus the middle of its ties; or
     * the values below it plus its ties before it, plus 1 (ties by position).
     */
    private static double rank(double[] x, int i, boolean averageTies) {
        int below = 0;
        int equal = 0;
        int equalBefore = 0;
        for (int k = 0; k < x.length; k++) {
            below += x[k] < x[i] ? 1 : 0;
            equal += x[k] == x[i] ? 1 : 0;
            equalBefore += x[k] == x[i] && k < i ? 1 : 0;
        }
        return averageTies ? below + (equal + 1) / 2.0 : below + equalBefore + 1;
    }

    private static int referenceColumn(long[][] counts) {
        int refColumn = 0;
        for (int j = 1; j < counts.length; j++) {
            if (sqrtSum(counts[j]) > sqrtSum(counts[refColumn])) {
                refColumn = j;
            }
        }
        return refColumn;
    }

    private static double sqrtSum(long[] x) {
        double s = 0;
        for (long v : x) {
            s += Math.sqrt(v);
        }
        return s;
    }

    private static long sum(long[] x) {
        long s = 0;
        for (long v : x) {
            s += v;
        }
        return s;
    }
}
