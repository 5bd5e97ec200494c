package io.cctflow.core.diff.stats;

import io.cctflow.core.Cct;
import io.cctflow.core.TreeCounts;
import java.util.Arrays;

/**
 * One replicate of one side (an instance, a window, or the whole side): per method its method
 * samples (recursion-aware: samples with a frame of the method, seed 002 Eq. 3.5) and self samples
 * (samples whose leaf frame is the method), and every sample of the replicate. Method ids sorted
 * ascending. Immutable by contract: the arrays are taken over, not copied.
 */
public record MethodSamples(long[] methodIds, long[] methodSamples, long[] selfSamples, long samples) {

    public MethodSamples {
        if (methodIds.length != methodSamples.length || methodIds.length != selfSamples.length) {
            throw new IllegalArgumentException("method columns differ in length");
        }
    }

    /** The per-method table the counts carry ({@link TreeCounts#methodIds()}). */
    public static MethodSamples of(TreeCounts counts) {
        return new MethodSamples(counts.methodIds(), counts.methodSamples(), counts.methodSelf(), counts.samples());
    }

    /** The per-method table of a tree. */
    public static MethodSamples of(Cct tree) {
        return of(TreeCounts.of(tree));
    }

    /** Index of a method, or a negative number. */
    public int indexOf(long methodId) {
        return Arrays.binarySearch(methodIds, methodId);
    }

    /** Method samples of a method; 0 if it has none. */
    public long methodSamplesOf(long methodId) {
        int i = indexOf(methodId);
        return i < 0 ? 0 : methodSamples[i];
    }

    /** Self samples of a method; 0 if it has none. */
    public long selfSamplesOf(long methodId) {
        int i = indexOf(methodId);
        return i < 0 ? 0 : selfSamples[i];
    }
}
