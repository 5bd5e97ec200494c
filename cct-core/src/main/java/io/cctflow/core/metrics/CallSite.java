package io.cctflow.core.metrics;

/**
 * One call site of a method's invocation view (seed 002): a calling or called method and the line
 * of the call, with the samples through it.
 *
 * @param method a caller's or callee's method id
 * @param line the call-site line: for a callee, the line of the method calling it; for a caller,
 *     the line of the caller calling the method
 * @param samples samples whose stack has this call at least once, each counted once
 * @param share samples over the method's method samples; 0 when it has none
 */
public record CallSite(long method, int line, long samples, double share) {
}
