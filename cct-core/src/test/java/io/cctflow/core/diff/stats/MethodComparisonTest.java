package io.cctflow.core.diff.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MethodComparisonTest {
    /** Side with methods 1..n: method i has {@code counts[i-1]} method samples and half as many self. */
    static MethodSamples side(long samples, long... counts) {
        long[] ids = new long[counts.length];
        long[] self = new long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            ids[i] = i + 1;
            self[i] = counts[i] / 2;
        }
        return new MethodSamples(ids, counts.clone(), self, samples);
    }

    @Test
    void labelsFollowTheSignOfTheSignificantChange() {
        MethodComparison.Result r = MethodComparison.compare(
                List.of(side(5_000, 490, 1510, 100), side(5_000, 510, 1490, 100)),
                List.of(side(5_000, 740, 1010, 100), side(5_000, 760, 990, 105)), 0.05);
        assertEquals(MethodComparison.REPLICATES, r.noise().model());
        for (MethodChange c : r.methods()) {
            for (Measure m : List.of(c.methodTime(), c.selfTime())) {
                Change expected = !m.significant() ? Change.UNCHANGED
                        : m.change().delta() > 0 ? Change.REGRESSION : Change.IMPROVEMENT;
                assertEquals(expected, m.label(), "method " + c.method());
            }
        }
        assertTrue(r.methods().get(0).significant(), "most significant first");
        MethodChange third = r.methods().stream().filter(c -> c.method() == 3).findFirst().orElseThrow();
        assertFalse(third.significant());
        assertEquals(Change.REGRESSION, byId(r, 1).methodTime().label());
        assertEquals(Change.IMPROVEMENT, byId(r, 2).methodTime().label());
    }

    @Test
    void aSideOfOneReplicateWithholdsEveryLabelAndKeepsTheBinomialNumbers() {
        Random random = new Random(29);
        for (int t = 0; t < 200; t++) {
            int methods = 1 + random.nextInt(8);
            List<MethodSamples> a = randomSide(random, methods, random.nextBoolean() ? 1 : 1 + random.nextInt(4));
            List<MethodSamples> b = randomSide(random, methods, a.size() > 1 ? 1 : 1 + random.nextInt(4));
            MethodComparison.Result r = MethodComparison.compare(a, b, 0.05);
            String what = "case " + t + ": " + r.noise();
            assertEquals(MethodComparison.WITHHELD, r.noise().model(), what);
            assertEquals(0, r.significant(), what);
            MethodSamples sa = MethodComparison.sum(a);
            MethodSamples sb = MethodComparison.sum(b);
            for (MethodChange c : r.methods()) {
                assertEquals(Change.WITHHELD, c.methodTime().label(), what);
                assertEquals(Change.WITHHELD, c.selfTime().label(), what);
                assertFalse(c.significant(), what);
                // the reference: the binomial test of the summed counts, computed directly
                ShareChange expected = ShareTest.binomial(sa.methodSamplesOf(c.method()), sa.samples(),
                        sb.methodSamplesOf(c.method()), sb.samples(), MethodComparison.CONFIDENCE);
                assertEquals(expected, c.methodTime().change(), what);
            }
        }
    }

    /** Replicates of 1..methods with random counts (method samples at most the replicate's samples). */
    private static List<MethodSamples> randomSide(Random random, int methods, int replicates) {
        List<MethodSamples> out = new ArrayList<>();
        for (int r = 0; r < replicates; r++) {
            long n = 1 + random.nextInt(5000);
            long[] counts = new long[methods];
            for (int i = 0; i < methods; i++) {
                counts[i] = (long) (random.nextDouble() * (n + 1));
            }
            out.add(side(n, counts));
        }
        return out;
    }

    @Test
    void replicatesThatDisagreeWidenTheTest() {
        // the same pooled counts, once with replicates that agree, once with replicates that scatter
        List<MethodSamples> a = List.of(side(5000, 500, 1000), side(5000, 500, 1000));
        List<MethodSamples> calm = List.of(side(5000, 560, 1000), side(5000, 560, 1000));
        List<MethodSamples> wild = List.of(side(5000, 420, 1000), side(5000, 700, 1000));
        MethodComparison.Result r1 = MethodComparison.compare(a, calm, 0.05);
        MethodComparison.Result r2 = MethodComparison.compare(a, wild, 0.05);
        assertEquals("replicates", r1.noise().model());
        assertEquals(2, r2.noise().replicatesB());
        double p1 = byId(r1, 1).methodTime().change().pValue();
        double p2 = byId(r2, 1).methodTime().change().pValue();
        assertTrue(p2 > p1, p1 + " vs " + p2);
        assertTrue(r2.noise().dispersion().trend(500) > 1, r2.noise().toString());
    }

    @Test
    void aLeafMethodsSelfTimeAndMethodTimeGetTheSameTest() {
        // method 1 is a leaf: its self samples are its method samples in every replicate, so its two
        // measures are the same counts and must get the same p-value, whatever the other methods do
        Random random = new Random(31);
        for (int t = 0; t < 100; t++) {
            int replicatesA = 2 + random.nextInt(3);
            int replicatesB = 2 + random.nextInt(3);
            List<MethodSamples> a = new ArrayList<>();
            List<MethodSamples> b = new ArrayList<>();
            for (List<MethodSamples> side : List.of(a, b)) {
                for (int r = 0; r < (side == a ? replicatesA : replicatesB); r++) {
                    long n = 2000 + random.nextInt(20_000);
                    long[] ids = new long[40];
                    long[] method = new long[40];
                    long[] self = new long[40];
                    for (int i = 0; i < 40; i++) {
                        ids[i] = i + 1;
                        method[i] = (long) (n * 0.3 * random.nextDouble() * (0.8 + 0.4 * random.nextDouble()));
                        self[i] = i == 0 ? method[i] : (long) (method[i] * random.nextDouble());
                    }
                    side.add(new MethodSamples(ids, method, self, n));
                }
            }
            MethodComparison.Result r = MethodComparison.compare(a, b, 0.05);
            MethodChange leaf = byId(r, 1);
            assertEquals(leaf.methodTime().change(), leaf.selfTime().change(), "case " + t);
            assertEquals(leaf.methodTime().significant(), leaf.selfTime().significant(), "case " + t);
        }
    }

    @Test
    void sumOfReplicatesIsThePerMethodSum() {
        Random random = new Random(1);
        for (int t = 0; t < 100; t++) {
            List<MethodSamples> parts = new ArrayList<>();
            long[] method = new long[50];
            long[] self = new long[50];
            long samples = 0;
            for (int r = 0; r < 1 + random.nextInt(40); r++) {
                List<Long> ids = new ArrayList<>();
                for (long id = -25; id < 25; id++) {
                    if (random.nextInt(3) == 0) {
                        ids.add(id);
                    }
                }
                long[] idArr = ids.stream().mapToLong(Long::longValue).toArray();
                long[] m = new long[idArr.length];
                long[] s = new long[idArr.length];
                for (int i = 0; i < idArr.length; i++) {
                    m[i] = random.nextInt(100);
                    s[i] = random.nextInt(100);
                    method[(int) idArr[i] + 25] += m[i];
                    self[(int) idArr[i] + 25] += s[i];
                }
                long n = 1000 + random.nextInt(100);
                samples += n;
                parts.add(new MethodSamples(idArr, m, s, n));
            }
            MethodSamples sum = MethodComparison.sum(parts);
            assertEquals(samples, sum.samples());
            for (long id = -25; id < 25; id++) {
                assertEquals(method[(int) id + 25], sum.methodSamplesOf(id));
                assertEquals(self[(int) id + 25], sum.selfSamplesOf(id));
            }
            List<MethodSamples> merged = MethodComparison.merge(parts);
            assertTrue(merged.size() <= MethodComparison.MAX_REPLICATES);
            assertEquals(samples, MethodComparison.sum(merged).samples());
        }
    }

    @Test
    void aMethodSeenInBurstsIsJudgedByItsOwnScatter() {
        // 300 calm methods (binomial around their shares) and method 301: 40 samples, all in one window of five on side a, none on side b. Against the
        // trend alone, 40 against 0 is far beyond the level; its own scatter says it is noise.
        Random random = new Random(41);
        List<MethodSamples> a = new ArrayList<>();
        List<MethodSamples> b = new ArrayList<>();
        for (int r = 0; r < 9; r++) {
            long n = 6000;
            long[] ids = new long[301];
            long[] counts = new long[301];
            for (int i = 0; i < 300; i++) {
                ids[i] = i + 1;
                counts[i] = binomial(random, n, 0.005 + 0.001 * (i % 7));
            }
            ids[300] = 301;
            counts[300] = r == 0 ? 40 : 0;
            (r < 5 ? a : b).add(new MethodSamples(ids, counts, counts.clone(), n));
        }
        MethodComparison.Result r = MethodComparison.compare(a, b, 0.05);
        MethodChange burst = byId(r, 301);
        assertFalse(burst.significant(), burst.toString());
        assertEquals(Change.UNCHANGED, burst.methodTime().label());
        assertTrue(ShareTest.binomial(40, 30_000, 0, 24_000, 0.95).pValue() < 1e-10, "the trend alone would flag it");
    }

    @Test
    void aMethodThatDoublesDoesNotDiluteTheOthersButRaisesItsCallers() {
        // method 1 the root (on every stack), 2..41 leaves under it; method 42 calls leaves 2 and 3
        // only. Side b: leaf 2 (10 % of the samples) does twice the work; every other leaf's share
        // of the samples falls by 1/1.1, its work per unit of the rest stays.
        MethodComparison.Result r = oneLeafDoubled(new Random(53));
        assertEquals(1 / 1.1, r.noise().normB() / r.noise().normA(), 0.02, r.noise().toString());
        assertEquals(Change.REGRESSION, byId(r, 2).selfTime().label());
        assertEquals(Change.REGRESSION, byId(r, 42).methodTime().label(), "a caller's method time rises");
        long restA = 0;
        long restB = 0;
        for (long id = 3; id <= 41; id++) {
            MethodChange c = byId(r, id);
            assertFalse(c.significant(), c.toString());
            restA += c.selfTime().change().countA();
            restB += c.selfTime().change().countB();
        }
        // their raw shares did fall, by a tenth: what the test saw before normalisation
        ShareChange raw = ShareTest.binomial(restA, 60_000, restB, 60_000, 0.95);
        assertEquals(1 / 1.1, raw.shareB() / raw.shareA(), 0.02);
        assertTrue(raw.pValue() < 1e-10, raw.toString());
    }

    @Test
    void theReportedDeltaIsNormalisedWhereTheRawDifferenceOfSharesIsDiluted() {
        // the delta (and interval) the compare endpoint reports and the alerting shift exports:
        // leaf 2 goes from 10 % of the samples to twice its work, 18.2 % raw; against the unchanged
        // bulk it doubles, 0.1 -> 0.2, each side scaled by 1.1^(-+1/2) (factors of geometric mean 1).
        // The 39 untouched leaves lose 8.2 points of share between them raw, none normalised.
        MethodComparison.Result r = oneLeafDoubled(new Random(59));
        ShareChange doubled = byId(r, 2).selfTime().change();
        assertEquals(0.1 / Math.sqrt(1.1), doubled.delta(), 0.005, doubled.toString());
        assertEquals(0.2 / 1.1 - 0.1, rawDelta(doubled), 0.005, doubled.toString());
        assertTrue(doubled.low() < doubled.delta() && doubled.delta() < doubled.high(), doubled.toString());
        double untouchedRaw = 0;
        double untouched = 0;
        for (long id = 3; id <= 41; id++) {
            ShareChange c = byId(r, id).selfTime().change();
            untouchedRaw += rawDelta(c);
            untouched += c.delta();
        }
        assertEquals(0.9 / 1.1 - 0.9, untouchedRaw, 0.005);
        assertEquals(0, untouched, 0.01);
    }

    /**
     * Three replicates a side of 20,000 samples: root 1, leaves 2..41 under it (leaf 2 10 % of the
     * samples, the rest alike), method 42 calling leaves 2 and 3 ({@link #leaves}); side b with
     * leaf 2 doing twice the work.
     */
    private static MethodComparison.Result oneLeafDoubled(Random random) {
        double[] weights = new double[42];
        for (int i = 1; i <= 40; i++) {
            weights[i] = i == 1 ? 0.10 : 0.90 / 39;
        }
        List<MethodSamples> a = new ArrayList<>();
        List<MethodSamples> b = new ArrayList<>();
        for (int r = 0; r < 6; r++) {
            double[] w = weights.clone();
            w[1] *= r < 3 ? 1 : 2;
            (r < 3 ? a : b).add(leaves(random, 20_000, w));
        }
        return MethodComparison.compare(a, b, 0.05);
    }

    /** The difference of the raw shares, count over samples, which normalisation replaced. */
    private static double rawDelta(ShareChange c) {
        return (double) c.countB() / c.samplesB() - (double) c.countA() / c.samplesA();
    }

    @Test
    void aMethodOnNearlyEveryStackDoesNotChangeHowTheOthersAreJudged() {
        // replicates whose composition varies (each leaf's weight jittered per replicate), then the
        // same with method 43 added: on every stack but leaf 41's (99.5 % of the samples), as a
        // request handler is. Normalised, its scatter is the factors' noise; it must not set the
        // trend the leaves are tested against.
        Random random = new Random(61);
        List<MethodSamples> a = new ArrayList<>();
        List<MethodSamples> b = new ArrayList<>();
        for (int r = 0; r < 6; r++) {
            double[] w = new double[42];
            for (int i = 1; i <= 40; i++) {
                w[i] = (i == 40 ? 0.005 : 0.995 / 39) * Math.exp(0.1 * random.nextGaussian());
            }
            w[1] *= r < 3 ? 1 : 2;
            (r < 3 ? a : b).add(leaves(random, 20_000, w));
        }
        MethodComparison.Result without = MethodComparison.compare(a, b, 0.05);
        MethodComparison.Result with = MethodComparison.compare(withNearRoot(a), withNearRoot(b), 0.05);
        assertEquals(without.noise().dispersion(), with.noise().dispersion());
        for (long id = 2; id <= 41; id++) {
            assertEquals(byId(without, id).selfTime().change(), byId(with, id).selfTime().change(), "method " + id);
        }
        // and it is a caller of leaf 2, whose work doubled: its own work rose, which it shows
        MethodChange handler = byId(with, 43);
        assertEquals(Change.REGRESSION, handler.methodTime().label(), handler.toString());
    }

    /** Each replicate with method 43 on every stack but those of leaf 41 (index 40). */
    private static List<MethodSamples> withNearRoot(List<MethodSamples> side) {
        List<MethodSamples> out = new ArrayList<>();
        for (MethodSamples s : side) {
            long[] ids = java.util.Arrays.copyOf(s.methodIds(), 43);
            long[] method = java.util.Arrays.copyOf(s.methodSamples(), 43);
            long[] self = java.util.Arrays.copyOf(s.selfSamples(), 43);
            ids[42] = 43;
            method[42] = s.samples() - s.selfSamples()[40];
            out.add(new MethodSamples(ids, method, self, s.samples()));
        }
        return out;
    }

    /**
     * One replicate of {@code n} samples drawn over leaves 2..41 by weight (index i - 1), each
     * under root 1, leaves 2 and 3 also under method 42.
     */
    private static MethodSamples leaves(Random random, long n, double[] weights) {
        long[] ids = new long[42];
        long[] method = new long[42];
        long[] self = new long[42];
        double total = 0;
        for (double w : weights) {
            total += w;
        }
        for (long s = 0; s < n; s++) {
            double u = random.nextDouble() * total;
            int leaf = 0;
            while (leaf < weights.length - 1 && u >= weights[leaf]) {
                u -= weights[leaf++];
            }
            self[leaf]++;
            method[leaf]++;
            method[0]++;
            if (leaf <= 2) {
                method[41]++;
            }
        }
        for (int i = 0; i < 42; i++) {
            ids[i] = i + 1;
        }
        return new MethodSamples(ids, method, self, n);
    }

    private static long binomial(Random random, long n, double p) {
        long k = 0;
        for (long i = 0; i < n; i++) {
            k += random.nextDouble() < p ? 1 : 0;
        }
        return k;
    }

    static MethodChange byId(MethodComparison.Result r, long id) {
        return r.methods().stream().filter(c -> c.method() == id).findFirst().orElseThrow();
    }
}
