package io.cctflow.core.diff.stats;

/**
 * A method compared between two sides: its method time (share of the samples with a frame of the
 * method; recursion-aware) and its self time (share of the samples whose leaf is the method).
 */
public record MethodChange(long method, Measure methodTime, Measure selfTime) {

    /** Whether either share changed significantly. */
    public boolean significant() {
        return methodTime.significant() || selfTime.significant();
    }

    /** The more significant of the two (smaller q-value, then smaller p-value; method time on ties). */
    public Measure strongest() {
        int c = Double.compare(selfTime.qValue(), methodTime.qValue());
        if (c == 0) {
            c = Double.compare(selfTime.change().pValue(), methodTime.change().pValue());
        }
        return c < 0 ? selfTime : methodTime;
    }
}
