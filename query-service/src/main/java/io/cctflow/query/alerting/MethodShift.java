package io.cctflow.query.alerting;

import io.cctflow.core.diff.stats.ShareChange;

/**
 * How a method's time changed from a baseline deployment to the current one, the figures the
 * compare endpoint reports for the same pair as the method's {@code methodTime.delta}, {@code low}
 * and {@code high}: {@code shift} is the normalised method time now minus the normalised method
 * time in the baseline (each side's method samples over its samples times its TMM factor, so a
 * method whose share fell only because another method grew does not shift), positive when the
 * method takes a larger share; {@code [low, high]} its 95 % confidence interval.
 *
 * @param currentSamples the method's samples in the current deployment (recursion-aware)
 * @param baselineSamples the method's samples in the baseline
 */
public record MethodShift(long methodId, long currentSamples, long baselineSamples, double shift, double low,
        double high) {

    /** A method time change of {@code MethodComparison} with the baseline as side A, current as side B. */
    static MethodShift of(long methodId, ShareChange methodTime) {
        return new MethodShift(methodId, methodTime.countB(), methodTime.countA(), methodTime.delta(),
                methodTime.low(), methodTime.high());
    }
}
