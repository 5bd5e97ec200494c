package io.cctflow.query.alerting;

import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Random samples for the alerting tests: stacks over a small method alphabet (so stacks recurse
 * often), each with a count. A profile is what one deployment's window holds.
 */
record Profiles(List<long[]> stacks, List<Long> counts) {

    static long method(int i) {
        return MethodId.of("com.example.M" + i, "run", "()V");
    }

    /** {@code stacks} random stacks of depth 0..maxDepth over methods 0..alphabet-1. */
    static Profiles random(Random random, int stacks, int maxDepth, int alphabet) {
        List<long[]> s = new ArrayList<>();
        List<Long> c = new ArrayList<>();
        for (int k = 0; k < stacks; k++) {
            long[] m = new long[random.nextInt(maxDepth + 1)];
            for (int i = 0; i < m.length; i++) {
                m[i] = method(random.nextInt(alphabet));
            }
            s.add(m);
            c.add(1L + random.nextInt(20));
        }
        return new Profiles(s, c);
    }

    Cct tree() {
        Cct tree = new Cct();
        for (int k = 0; k < stacks.size(); k++) {
            long[] m = stacks.get(k);
            tree.addStack(m, new int[m.length], m.length, counts.get(k));
        }
        return tree;
    }

    long samples() {
        return counts.stream().mapToLong(Long::longValue).sum();
    }

    /** Both profiles' samples together. */
    Profiles plus(Profiles other) {
        List<long[]> s = new ArrayList<>(stacks);
        s.addAll(other.stacks);
        List<Long> c = new ArrayList<>(counts);
        c.addAll(other.counts);
        return new Profiles(s, c);
    }

    /**
     * The reference ranking: every method 0..alphabet-1 sampled on either side with its shift
     * (per-sample method time now minus before), sorted completely by absolute shift, then id.
     */
    static List<MethodShift> rankAll(Profiles current, Profiles baseline, int alphabet) {
        List<MethodShift> all = new ArrayList<>();
        for (int i = 0; i < alphabet; i++) {
            long id = method(i);
            long now = current.samplesWith(id);
            long before = baseline.samplesWith(id);
            if (now > 0 || before > 0) {
                double shift = (double) now / current.samples() - (double) before / baseline.samples();
                all.add(new MethodShift(id, now, before, shift));
            }
        }
        all.sort(Comparator.comparingDouble((MethodShift x) -> -Math.abs(x.shift()))
                .thenComparingLong(MethodShift::methodId));
        return all;
    }

    /** Brute force, per sample: the samples whose stack holds {@code methodId} at least once. */
    long samplesWith(long methodId) {
        long n = 0;
        for (int k = 0; k < stacks.size(); k++) {
            for (long m : stacks.get(k)) {
                if (m == methodId) {
                    n += counts.get(k);
                    break;
                }
            }
        }
        return n;
    }
}
