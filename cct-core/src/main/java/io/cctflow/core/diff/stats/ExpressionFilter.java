package io.cctflow.core.diff.stats;

import java.util.Arrays;

/**
 * Which shares are worth testing: independent filtering by counts, the rule of edgeR's {@code
 * filterByExpr} (Chen, Lun and Smyth 2016) applied to a share and to its complement alike.
 *
 * <p>A share is tested when, in at least as many replicates as the smaller side has (beyond {@value
 * #LARGE_N}, that many plus {@value #MIN_PROPORTION} of the rest), it holds at least {@value
 * #MIN_COUNT} samples at the median replicate size (a replicate of {@code n} samples: {@code
 * MIN_COUNT n / median}), and both sides together hold at least {@value #MIN_TOTAL}. The same holds
 * for the samples outside the share: a method on 99.3 % of the stacks is judged by the 0.7 % that
 * miss it, as a method of 0.7 % is by its own. The rule looks at the counts pooled over both sides,
 * never at which side holds them, so under no change it is independent of the test's statistic and
 * leaves the false discovery rate of the shares tested where it was (Bourgon, Gentleman and Huber
 * 2010).
 *
 * <p>Why: a share of a few samples a replicate is where the noise model is weakest. Windows of one
 * JVM are replicates of that JVM, not of the release: a JFR housekeeping thread seen 7 times in one
 * run and never in the next (a difference of the two JVMs, not of the code) passed the
 * quasi-binomial test at q = 0.03 with five windows against four, and so did its complement in
 * every method above it. A method of 10 samples a window or more is what an SRE can act on.
 * Stateless.
 */
public final class ExpressionFilter {
    /** Samples a share needs in a replicate of median size. */
    public static final long MIN_COUNT = 10;
    /** Samples a share needs over both sides together. */
    public static final long MIN_TOTAL = 15;
    /** Replicates needed beyond which only {@link #MIN_PROPORTION} of the rest are. */
    static final int LARGE_N = 10;
    /** Proportion of the replicates beyond {@link #LARGE_N} needed. */
    static final double MIN_PROPORTION = 0.7;

    private final long[] samples;
    private final double median;
    private final int needed;

    /**
     * @param samplesA samples of each replicate of side A
     * @param samplesB samples of each replicate of side B
     */
    public ExpressionFilter(long[] samplesA, long[] samplesB) {
        samples = new long[samplesA.length + samplesB.length];
        System.arraycopy(samplesA, 0, samples, 0, samplesA.length);
        System.arraycopy(samplesB, 0, samples, samplesA.length, samplesB.length);
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        int r = sorted.length;
        median = r == 0 ? 0 : r % 2 == 1 ? sorted[r / 2] : (sorted[r / 2 - 1] + sorted[r / 2]) / 2.0;
        int smaller = Math.min(samplesA.length, samplesB.length);
        needed = smaller <= LARGE_N ? smaller
                : (int) Math.ceil(LARGE_N + (smaller - LARGE_N) * MIN_PROPORTION - 1e-9);
    }

    /**
     * Whether a share is tested.
     *
     * @param countsA the share's samples in each replicate of side A (in the order of the constructor's)
     * @param countsB the same for side B
     */
    public boolean tested(long[] countsA, long[] countsB) {
        return reaches(countsA, countsB, false) && reaches(countsA, countsB, true);
    }

    private boolean reaches(long[] countsA, long[] countsB, boolean complement) {
        long total = 0;
        int enough = 0;
        for (int j = 0; j < samples.length; j++) {
            long x = j < countsA.length ? countsA[j] : countsB[j - countsA.length];
            long c = complement ? samples[j] - x : x;
            total += c;
            enough += samples[j] > 0 && c * median >= (double) MIN_COUNT * samples[j] ? 1 : 0;
        }
        return total >= MIN_TOTAL && enough >= needed;
    }
}
