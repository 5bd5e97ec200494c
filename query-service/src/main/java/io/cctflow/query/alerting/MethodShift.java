package io.cctflow.query.alerting;

/**
 * How a method's time changed from a baseline deployment to the current one: {@code shift} is
 * method time now minus method time in the baseline (each method samples / all samples of its
 * window, recursion-aware), in [-1, 1]; positive means the method takes a larger share.
 */
public record MethodShift(long methodId, long currentSamples, long baselineSamples, double shift) {
}
