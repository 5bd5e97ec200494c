package io.cctflow.core.diff.stats;

/**
 * How one share (a method's method time or self time) changed from side A to side B, with its
 * uncertainty: the counts it is made of, a confidence interval for the change and an unadjusted
 * p-value for "no change".
 *
 * <p>Shares are normalised against the unchanged bulk of the methods ({@link Normalisation}): a
 * side's share is {@code count / (samples * norm)}, {@code norm} the side's TMM factor (1 where
 * nothing is normalised).
 *
 * @param countA the method's samples on side A (method samples or self samples)
 * @param samplesA every sample of side A: the share's denominator before normalisation
 * @param low lower end of the confidence interval of {@link #delta()}
 * @param high upper end of it
 * @param pValue two-sided p-value of "the share is the same on both sides", before the
 *     multiple-testing adjustment
 * @param normA side A's normalisation factor: its effective samples are {@code samplesA * normA}
 * @param normB side B's
 */
public record ShareChange(long countA, long samplesA, long countB, long samplesB, double low, double high,
        double pValue, double normA, double normB) {

    /** Without normalisation (factors 1). */
    public ShareChange(long countA, long samplesA, long countB, long samplesB, double low, double high,
            double pValue) {
        this(countA, samplesA, countB, samplesB, low, high, pValue, 1, 1);
    }

    /** count / (samples * norm) of side A. */
    public double shareA() {
        return samplesA == 0 ? 0.0 : countA / (samplesA * normA);
    }

    /** count / (samples * norm) of side B. */
    public double shareB() {
        return samplesB == 0 ? 0.0 : countB / (samplesB * normB);
    }

    /** shareB - shareA: positive when the method takes a larger share of side B's samples. */
    public double delta() {
        return shareB() - shareA();
    }
}
