package io.cctflow.query.alerting;

import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.diff.stats.MethodSamples;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
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
     * The reference ranking: every method 0..alphabet-1 sampled on either side with its shift, per
     * sample: method samples now over the current samples times {@code normCurrent}, minus the same
     * before with {@code normBaseline} (the normalised shares; factors 1 give the raw difference),
     * and the interval {@code interval} gives it; sorted completely by absolute shift, then id.
     */
    static List<MethodShift> rankAll(Profiles current, Profiles baseline, int alphabet, double normCurrent,
            double normBaseline, java.util.function.LongFunction<double[]> interval) {
        List<MethodShift> all = new ArrayList<>();
        for (int i = 0; i < alphabet; i++) {
            long id = method(i);
            long now = current.samplesWith(id);
            long before = baseline.samplesWith(id);
            if (now > 0 || before > 0) {
                double shift = now / (current.samples() * normCurrent) - before / (baseline.samples() * normBaseline);
                double[] bounds = interval.apply(id);
                all.add(new MethodShift(id, now, before, shift, bounds[0], bounds[1]));
            }
        }
        all.sort(Comparator.comparingDouble((MethodShift x) -> -Math.abs(x.shift()))
                .thenComparingLong(MethodShift::methodId));
        return all;
    }

    /**
     * The per-method table by brute force, per stack: method samples (stacks holding the method at
     * least once) and self samples (stacks whose last frame is the method) of methods 0..alphabet-1.
     */
    MethodSamples methodSamples(int alphabet) {
        List<Long> ids = new ArrayList<>();
        List<Long> method = new ArrayList<>();
        List<Long> self = new ArrayList<>();
        for (int i = 0; i < alphabet; i++) {
            long id = method(i);
            long leaf = 0;
            for (int k = 0; k < stacks.size(); k++) {
                long[] m = stacks.get(k);
                leaf += m.length > 0 && m[m.length - 1] == id ? counts.get(k) : 0;
            }
            if (samplesWith(id) > 0) {
                ids.add(id);
                method.add(samplesWith(id));
                self.add(leaf);
            }
        }
        // method ids are hashes: sort the rows by id as the counts do
        Integer[] order = new Integer[ids.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong(ids::get));
        return new MethodSamples(Arrays.stream(order).mapToLong(ids::get).toArray(),
                Arrays.stream(order).mapToLong(method::get).toArray(),
                Arrays.stream(order).mapToLong(self::get).toArray(), samples());
    }

    /**
     * The reference of the exported shifts: {@link #rankAll} of the merged replicates with the
     * normalisation factors {@link MethodComparison} found on the brute-force tables, keeping the
     * methods whose method time it finds significant, with its interval (the compare endpoint's).
     */
    static List<MethodShift> rankSignificant(List<Profiles> current, List<Profiles> baseline, int alphabet) {
        MethodComparison.Result r = MethodComparison.compare(
                baseline.stream().map(p -> p.methodSamples(alphabet)).toList(),
                current.stream().map(p -> p.methodSamples(alphabet)).toList(), MethodComparison.DEFAULT_LEVEL);
        Map<Long, double[]> significant = new HashMap<>();
        r.methods().stream().filter(c -> c.methodTime().significant()).forEach(c -> significant.put(c.method(),
                new double[] {c.methodTime().change().low(), c.methodTime().change().high()}));
        return rankAll(merged(current), merged(baseline), alphabet, r.noise().normB(), r.noise().normA(),
                id -> significant.getOrDefault(id, new double[2])).stream()
                .filter(x -> significant.containsKey(x.methodId())).toList();
    }

    static Profiles merged(List<Profiles> parts) {
        Profiles out = new Profiles(List.of(), List.of());
        for (Profiles p : parts) {
            out = out.plus(p);
        }
        return out;
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
