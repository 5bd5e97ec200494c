package io.cctflow.core.diff.stats;

/**
 * How one share (a method's method time or self time) changed from side A to side B, with its
 * uncertainty: the counts it is made of, a confidence interval for the change and an unadjusted
 * p-value for "no change".
 *
 * @param countA the method's samples on side A (method samples or self samples)
 * @param samplesA every sample of side A: the share's denominator
 * @param low lower end of the confidence interval of {@link #delta()}
 * @param high upper end of it
 * @param pValue two-sided p-value of "the share is the same on both sides", before the
 *     multiple-testing adjustment
 */
public record ShareChange(long countA, long samplesA, long countB, long samplesB, double low, double high,
        double pValue) {

    public double shareA() {
        return samplesA == 0 ? 0.0 : (double) countA / samplesA;
    }

    public double shareB() {
        return samplesB == 0 ? 0.0 : (double) countB / samplesB;
    }

    /** shareB - shareA: positive when the method takes a larger share of side B's samples. */
    public double delta() {
        return shareB() - shareA();
    }
}
