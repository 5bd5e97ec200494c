package io.cctflow.core.baseline;

/**
 * Performance change arrow between a method's current and baseline <em>method time</em> (seed 002,
 * Sect. 3.4.3, Listing 3.6 and Table 3.2): an angle from +90&deg; (arrow pointing down, the method
 * time at most halved: improvement) over 0&deg; (no change) to -90&deg; (pointing up, at least
 * doubled: regression), and a colour from green over blue to red.
 *
 * <h2>Algorithm</h2>
 *
 * <ol>
 *   <li>Special cases: both times zero gives 0&deg;; a zero baseline with a non-zero current time
 *       gives -45&deg; ("regression"); a zero current time with a non-zero baseline gives +45&deg;
 *       ("improvement").
 *   <li>{@code d = current / baseline}, clamped to [0.5, 2].
 *   <li>Normalise to [-1, 1]: {@code d >= 1} maps to {@code -(d - 1)} ([1, 2] to [0, -1]);
 *       {@code d < 1} maps to {@code 1/d - 1} ([0.5, 1) to (0, 1], so a halving is as far from 0
 *       as a doubling).
 *   <li>The angle is {@code 90 * d}.
 *   <li>Colour: {@code c = round(|degrees| * 255 / 90)}; red = c if the angle is negative,
 *       otherwise green = c; blue = 255 - c.
 * </ol>
 *
 * <h2>Discrepancy in Listing 3.6, and the fix</h2>
 *
 * Listing 3.6 branches on {@code if (dMethodTime >= 0)} (line 22). After clamping to [0.5, 2] that
 * condition is always true, so the listing always takes {@code -1 * (dMethodTime - 1)} and never
 * reaches {@code 1 / dMethodTime - 1}: it maps [0.5, 2] linearly onto [0.5, -1], so a halving gives
 * only +45&deg; and the improvement side never reaches +90&deg;. That contradicts the listing's own
 * comment ({@code [0.5;1[ -> ]0;1]}), the prose ("[0.5, 1] is mapped to [0, 1]") and Table 3.2,
 * whose rows (baseline 0.1) need the reciprocal branch: current 0.05 gives 90&deg; (listing: 45),
 * 0.067 gives 44&deg; (listing: 29.7), 0.083 gives 18&deg; (listing: 15.3). The fix is to branch on
 * {@code dMethodTime >= 1} instead of {@code >= 0}. The regression side (d &ge; 1) is unchanged.
 *
 * <p>The table's integers also pin down the rounding, which the thesis does not state: the printed
 * angle is the exact angle truncated toward zero (0.133 gives -29.7, printed -29; 0.067 gives 44.33,
 * printed 44), and the colour is computed from that integer angle and rounded to nearest (44&deg;
 * gives 124.67, printed 125; 18&deg; gives 51, whereas the exact 18.43&deg; would give 52). {@link
 * #degrees()} and the colour channels follow those rules; {@link #angle()} keeps the exact value.
 *
 * @param angle exact angle in degrees, in [-90, 90]; positive is an improvement
 * @param degrees {@code angle} truncated toward zero, as Table 3.2 prints it
 * @param red red channel, 0 to 255 (non-zero only for a regression)
 * @param green green channel, 0 to 255 (non-zero only for an improvement)
 * @param blue blue channel, 0 to 255 ({@code 255 - red - green})
 */
public record BaselineComparison(double angle, int degrees, int red, int green, int blue) {

    /** Largest angle, reached at a halving (+) or doubling (-) of the method time. */
    public static final double MAX_ANGLE = 90;

    /** Angle for a method with no baseline time but some current time (regression). */
    public static final double ZERO_BASELINE_ANGLE = -45;

    /** Angle for a method with some baseline time but no current time (improvement). */
    public static final double ZERO_CURRENT_ANGLE = 45;

    /** Direction of the change, by the sign of the (truncated) angle. */
    public enum Change {
        IMPROVEMENT,
        UNCHANGED,
        REGRESSION
    }

    public BaselineComparison {
        if (!(angle >= -MAX_ANGLE && angle <= MAX_ANGLE)) {
            throw new IllegalArgumentException("angle out of [-90, 90]: " + angle);
        }
    }

    /**
     * @param current current method time (any unit, same as {@code baseline}), finite and &ge; 0
     * @param baseline baseline method time, finite and &ge; 0
     */
    public static BaselineComparison of(double current, double baseline) {
        checkTime("current", current);
        checkTime("baseline", baseline);
        return ofAngle(angle(current, baseline));
    }

    /** The exact angle of Listing 3.6 with the corrected normalisation (see the class comment). */
    public static double angle(double current, double baseline) {
        checkTime("current", current);
        checkTime("baseline", baseline);
        if (baseline == 0) {
            return current == 0 ? 0 : ZERO_BASELINE_ANGLE;
        } else if (current == 0) {
            return ZERO_CURRENT_ANGLE;
        }
        double d = current / baseline;
        d = Math.max(0.5, Math.min(2, d));
        // Listing 3.6 tests d >= 0 here, which always holds after clamping; the fix is d >= 1.
        double normalised = d >= 1 ? -(d - 1) : 1 / d - 1;
        return MAX_ANGLE * normalised;
    }

    /** Colour and truncated angle for an exact angle in [-90, 90]. */
    public static BaselineComparison ofAngle(double angle) {
        int degrees = (int) angle; // toward zero, as Table 3.2 prints
        int c = (int) Math.round(Math.abs(degrees) * 255 / MAX_ANGLE);
        int red = degrees < 0 ? c : 0;
        int green = degrees < 0 ? 0 : c;
        return new BaselineComparison(angle, degrees, red, green, 255 - c);
    }

    public Change change() {
        return degrees > 0 ? Change.IMPROVEMENT : degrees < 0 ? Change.REGRESSION : Change.UNCHANGED;
    }

    /** Colour as {@code 0xRRGGBB}. */
    public int rgb() {
        return red << 16 | green << 8 | blue;
    }

    private static void checkTime(String name, double time) {
        if (!(time >= 0) || Double.isInfinite(time)) {
            throw new IllegalArgumentException(name + " method time must be finite and >= 0: " + time);
        }
    }
}
