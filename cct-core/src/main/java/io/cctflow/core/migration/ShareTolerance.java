package io.cctflow.core.migration;

/**
 * When an inclusive share of a generated profile counts as correct against the real profile's
 * share {@code b}: {@code |a - b| <= absolute + relative * b}.
 *
 * <p>Seed 001 compares exact counts ({@code absolute = relative = 0}); sampled profiles never
 * match exactly, so some tolerance is needed, and which one decides what Acc measures:
 *
 * <ul>
 *   <li>{@link #absolute(double)} (e.g. 0.01, one percentage point of the root's samples) accepts
 *       any value for a context whose real share is below the tolerance, a context the generated
 *       profile lacks altogether included (share 0). Trees of sampled real programs are mostly
 *       such rarely sampled contexts, so Acc is high for any profile, even one of a handful of
 *       samples.
 *   <li>{@link #relative(double)} (e.g. 0.1, within 10 % of the real share) accepts a context only
 *       when the generated profile has it, with about the right weight, however small it is: Acc
 *       then counts contexts the generated profile got right, and a profile built from few
 *       samples scores low.
 * </ul>
 *
 * <p>Immutable and thread-safe.
 *
 * @param absolute share difference accepted for every context, &ge; 0 and finite
 * @param relative share difference accepted per unit of the real share, &ge; 0 and finite
 */
public record ShareTolerance(double absolute, double relative) {

    public ShareTolerance {
        if (!(absolute >= 0 && absolute < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("tolerance must be >= 0 and finite: " + absolute);
        }
        if (!(relative >= 0 && relative < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("relative tolerance must be >= 0 and finite: " + relative);
        }
    }

    /** Accepts {@code |a - b| <= tolerance}, the same for every context. */
    public static ShareTolerance absolute(double tolerance) {
        return new ShareTolerance(tolerance, 0);
    }

    /** Accepts {@code |a - b| <= tolerance * b}: a context missing from the generated profile is never correct. */
    public static ShareTolerance relative(double tolerance) {
        return new ShareTolerance(0, tolerance);
    }

    /** Whether {@code value} is close enough to the real share {@code real}. */
    public boolean accepts(double value, double real) {
        return Math.abs(value - real) <= absolute + relative * real;
    }

    @Override
    public String toString() {
        if (relative == 0) {
            return "within " + absolute + " of the root's samples";
        }
        if (absolute == 0) {
            return "within " + relative + " of the real share";
        }
        return "within " + absolute + " of the root's samples plus " + relative + " of the real share";
    }
}
