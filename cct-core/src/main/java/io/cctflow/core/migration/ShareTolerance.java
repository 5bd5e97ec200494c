package io.cctflow.core.migration;

/**
 * When an inclusive share {@code a} of a generated profile counts as correct against the share
 * {@code b} of the real profile, which has {@code n} samples:
 * {@code |a - b| <= absolute + z * sqrt(2 * b * (1 - b) / n)}.
 *
 * <p>Seed 001 compares exact counts ({@code absolute = z = 0}); sampled profiles never match
 * exactly, so some tolerance is needed, and which one decides what Acc measures:
 *
 * <ul>
 *   <li>{@link #absolute(double)} (e.g. 0.01, one percentage point of the root's samples) accepts
 *       any value for a context whose real share is below the tolerance, a context the generated
 *       profile lacks altogether included (share 0). Trees of sampled real programs are mostly
 *       such rarely sampled contexts, so Acc is high for any profile, even one of a handful of
 *       samples.
 *   <li>{@link #sampling(double)} (e.g. z = 2) accepts what sampling alone explains: a context's
 *       inclusive count in a profile of {@code n} samples is binomial with mean {@code n * b}, so
 *       two independent profiles of {@code n} samples differ in its share with standard deviation
 *       {@code sqrt(2 * b * (1 - b) / n)}. A generated profile is correct where it is as close to
 *       the real one as another run of the same length would be; a context it lacks is wrong
 *       unless the real profile sampled it only a few times. A profile built from few samples
 *       scores low, and the real profile itself scores 1.
 * </ul>
 *
 * <p>Immutable and thread-safe.
 *
 * @param absolute share difference accepted for every context, &ge; 0 and finite
 * @param z standard deviations of the sampling difference accepted, &ge; 0 and finite
 */
public record ShareTolerance(double absolute, double z) {

    public ShareTolerance {
        if (!(absolute >= 0 && absolute < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("tolerance must be >= 0 and finite: " + absolute);
        }
        if (!(z >= 0 && z < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("z must be >= 0 and finite: " + z);
        }
    }

    /** Accepts {@code |a - b| <= tolerance}, the same for every context. */
    public static ShareTolerance absolute(double tolerance) {
        return new ShareTolerance(tolerance, 0);
    }

    /** Accepts a difference of up to {@code z} standard deviations of what sampling alone gives. */
    public static ShareTolerance sampling(double z) {
        return new ShareTolerance(0, z);
    }

    /**
     * Whether {@code value} is close enough to the real share {@code real}.
     *
     * @param realSamples samples of the real profile (its root's total); with none, only the
     *     absolute part applies
     */
    public boolean accepts(double value, double real, long realSamples) {
        double noise = realSamples > 0 ? Math.sqrt(2 * real * (1 - real) / realSamples) : 0;
        return Math.abs(value - real) <= absolute + z * noise;
    }

    @Override
    public String toString() {
        if (z == 0) {
            return "within " + absolute + " of the root's samples";
        }
        if (absolute == 0) {
            return "within " + z + " standard deviations of the sampling noise";
        }
        return "within " + absolute + " of the root's samples plus " + z + " standard deviations of the sampling noise";
    }
}
