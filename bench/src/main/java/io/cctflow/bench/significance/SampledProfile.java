package io.cctflow.bench.significance;

import io.cctflow.core.diff.stats.MethodSamples;
import java.util.Arrays;
import java.util.Random;

/**
 * A random "true" profile and samples drawn from it. The profile is a set of stacks (depth 1..12
 * over an alphabet of methods, outer frames from few methods, recursion allowed) with lognormal
 * weights; a sample picks one stack with probability proportional to its weight (multinomial
 * sampling), and a replicate's method samples and self samples are computed from the stacks'
 * counts as a tree would give them (a method counts once per sample, however often it recurses).
 * Immutable.
 */
public final class SampledProfile {
    private final int methods;
    /** Per stack: the distinct method indexes on it. */
    private final int[][] onStack;
    private final int[] leaf;
    private final double[] weights;

    private SampledProfile(int methods, int[][] onStack, int[] leaf, double[] weights) {
        this.methods = methods;
        this.onStack = onStack;
        this.leaf = leaf;
        this.weights = weights;
    }

    /** A random profile of {@code stacks} stacks over {@code methods} methods. */
    public static SampledProfile random(Random random, int stacks, int methods) {
        int[][] onStack = new int[stacks][];
        int[] leaf = new int[stacks];
        double[] weights = new double[stacks];
        for (int s = 0; s < stacks; s++) {
            int depth = 1 + random.nextInt(12);
            int[] frames = new int[depth];
            for (int d = 0; d < depth; d++) {
                frames[d] = random.nextInt(Math.min(methods, 2 + d * methods / 8));
            }
            leaf[s] = frames[depth - 1];
            onStack[s] = Arrays.stream(frames).distinct().sorted().toArray();
            weights[s] = Math.exp(1.5 * random.nextGaussian());
        }
        return new SampledProfile(methods, onStack, leaf, weights);
    }

    /** This profile with every stack through {@code method} weighted {@code 1 + effect} times: more work there. */
    public SampledProfile slowed(int method, double effect) {
        return slowed(method, effect, false);
    }

    /**
     * This profile with more work in {@code method}: every stack through it ({@code selfOnly}
     * false: it and all it calls do more, as if called more often) or only the stacks whose leaf it
     * is (its own code does more, as the demo's {@code priceCart} does) weighted {@code 1 + effect}
     * times.
     */
    public SampledProfile slowed(int method, double effect, boolean selfOnly) {
        double[] w = weights.clone();
        for (int s = 0; s < w.length; s++) {
            if (changes(s, method, selfOnly)) {
                w[s] *= 1 + effect;
            }
        }
        return new SampledProfile(methods, onStack, leaf, w);
    }

    /**
     * Per method, whether no stack that {@link #slowed(int, double, boolean)} changes goes through
     * it: the slowdown leaves its work (method time and self time) exactly as it was.
     */
    public boolean[] untouchedBy(int method, boolean selfOnly) {
        boolean[] out = new boolean[methods];
        Arrays.fill(out, true);
        for (int s = 0; s < onStack.length; s++) {
            if (changes(s, method, selfOnly)) {
                for (int m : onStack[s]) {
                    out[m] = false;
                }
            }
        }
        return out;
    }

    private boolean changes(int stack, int method, boolean selfOnly) {
        return selfOnly ? leaf[stack] == method : Arrays.binarySearch(onStack[stack], method) >= 0;
    }

    /** The method whose expected method time is closest to {@code share}. */
    public int methodWithShare(double share) {
        return closest(methodTimes(), share);
    }

    /** The method whose expected self time is closest to {@code share}. */
    public int methodWithSelfShare(double share) {
        double total = Arrays.stream(weights).sum();
        double[] shares = new double[methods];
        for (int s = 0; s < weights.length; s++) {
            shares[leaf[s]] += weights[s] / total;
        }
        return closest(shares, share);
    }

    private int closest(double[] shares, double share) {
        int best = 0;
        for (int m = 1; m < methods; m++) {
            if (Math.abs(shares[m] - share) < Math.abs(shares[best] - share)) {
                best = m;
            }
        }
        return best;
    }

    /** Expected method time of every method. */
    public double[] methodTimes() {
        double total = Arrays.stream(weights).sum();
        double[] out = new double[methods];
        for (int s = 0; s < weights.length; s++) {
            for (int m : onStack[s]) {
                out[m] += weights[s] / total;
            }
        }
        return out;
    }

    /**
     * One replicate of {@code n} samples. With {@code jitter > 0}, the replicate first scales each
     * stack's weight by an independent lognormal factor of that log-sd (windows and instances that
     * differ beyond sampling: over-dispersion); 0 gives pure multinomial sampling.
     */
    public MethodSamples sample(Random random, int n, double jitter) {
        double[] cumulative = new double[weights.length];
        double sum = 0;
        for (int s = 0; s < weights.length; s++) {
            double w = jitter > 0 ? weights[s] * Math.exp(jitter * random.nextGaussian()) : weights[s];
            sum += w;
            cumulative[s] = sum;
        }
        long[] stackCounts = new long[weights.length];
        for (int i = 0; i < n; i++) {
            int s = Arrays.binarySearch(cumulative, random.nextDouble() * sum);
            stackCounts[s < 0 ? -s - 1 : s]++;
        }
        long[] method = new long[methods];
        long[] self = new long[methods];
        for (int s = 0; s < weights.length; s++) {
            for (int m : onStack[s]) {
                method[m] += stackCounts[s];
            }
            self[leaf[s]] += stackCounts[s];
        }
        int present = 0;
        for (int m = 0; m < methods; m++) {
            present += method[m] > 0 ? 1 : 0;
        }
        long[] ids = new long[present];
        long[] ms = new long[present];
        long[] ss = new long[present];
        int k = 0;
        for (int m = 0; m < methods; m++) {
            if (method[m] > 0) {
                ids[k] = id(m);
                ms[k] = method[m];
                ss[k++] = self[m];
            }
        }
        return new MethodSamples(ids, ms, ss, n);
    }

    /** The method id a method index is reported under. */
    public static long id(int method) {
        return method + 1;
    }
}
