package io.cctflow.core.metrics;

/**
 * Every metric of one method in one scope (seed 002 Sect. 3.3.2): method and self time, callee,
 * caller and thread time, each with its raw sample counts. What a method's popup in the thesis
 * shows, and what one query of the API returns. Immutable.
 */
public record MethodMetrics(MethodTime time, Shares callees, Shares callers, Shares threads) {

    /** O(nodes + per-thread entries + sum of the recursion depths of the method's nodes). */
    public static MethodMetrics of(Scope scope, long methodId) {
        MethodTime time = MethodTime.of(scope, methodId);
        long samples = time.methodSamples();
        return new MethodMetrics(time, CalleeTime.of(scope, methodId, samples),
                CallerTime.of(scope, methodId, samples), ThreadTime.of(scope, methodId, samples));
    }
}
