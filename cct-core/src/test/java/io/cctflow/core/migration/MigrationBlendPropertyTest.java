package io.cctflow.core.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** {@link MigrationBlend} and its rule ({@link MigrationWeights}) against a brute force over paths, on random trees and change lists. */
class MigrationBlendPropertyTest {

    @Property(tries = 300)
    void blendEqualsTheBruteForceOverPaths(@ForAll long seed, @ForAll ImpactAnalysis mode,
            @ForAll @IntRange(min = 0, max = 40) int stacks, @ForAll @IntRange(min = 0, max = 30) int newStacks,
            @ForAll @IntRange(min = 1, max = 40) int newWeight) {
        Cct old = MigrationTrees.random(seed, stacks, 6, 5);
        // the new deployment's counts times newWeight: from far fewer samples than the old to far more
        Cct neu = scaled(MigrationTrees.random(seed + 1, newStacks, 6, 6), newWeight);
        ChangeList changes = MigrationTrees.randomChanges(seed, 5);
        MigrationBlend blend = MigrationBlend.of(old, changes, mode, neu);

        Expected e = bruteForce(old, changes, mode, neu);
        assertThat(blend.phasedOut()).isEqualTo(e.phasedOut);
        assertThat(blend.newSamples()).isEqualTo(neu.total(Cct.ROOT));
        assertThat(blend.betweenDeploymentVariance()).isCloseTo(e.tau2, within(1e-12));
        assertThat(blend.blendedContexts()).isEqualTo(e.blended);
        assertThat(blend.droppedContexts()).isEqualTo(e.dropped);
        if (blend.phasedOut()) {
            assertThat(positive(blend.tree())).isEqualTo(positive(neu));
            assertThat(blend.migratedPart().total(Cct.ROOT)).isZero();
            return;
        }
        assertMatches(blend.tree(), e.self);
        assertMatches(blend.migratedPart(), e.migrated);
        for (int n = 0; n < blend.tree().size(); n++) {
            assertThat(blend.migratedPart().id(n)).as("same indexes").isEqualTo(blend.tree().id(n));
            assertThat(blend.isMigrated(n)).isEqualTo(blend.migratedPart().total(n) > 0);
            assertThat(blend.migratedPart().self(n)).isLessThanOrEqualTo(blend.tree().self(n));
        }
    }

    @Property(tries = 200)
    void anOldProfileThatAgreesWithTheNewSamplesCountsEverySampleOnce(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 40) int stacks, @ForAll @IntRange(min = 1, max = 3) int oldWeight) {
        Cct neu = MigrationTrees.random(seed, stacks, 6, 5);
        Cct old = scaled(neu, oldWeight); // the same proportions: no disagreement beyond noise
        Assume.that(selfByPath(neu).values().stream().filter(c -> c > 0).count() >= 2); // one context: share 1 either way
        MigrationBlend blend = MigrationBlend.of(old, ChangeList.NONE, ImpactAnalysis.AG, neu);
        assertThat(blend.betweenDeploymentVariance()).isZero();
        // 1.96^2 / Nr > 1 / R while R < 3.84 Nr: nothing is dropped and each context is o + n
        assertThat(blend.droppedContexts()).isZero();
        assertThat(positive(blend.tree())).isEqualTo(positive(scaled(neu, oldWeight + 1)));
        assertThat(positive(blend.migratedPart())).isEqualTo(positive(old));
    }

    @Property(tries = 200)
    void anOldProfileThatDisagreesIsTrustedLessAndFadesFaster(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 40) int stacks) {
        Cct neu = scaled(MigrationTrees.random(seed, stacks, 6, 5), 20);
        Cct agreeing = scaled(neu, 3);
        Cct other = scaled(MigrationTrees.random(seed + 7, stacks, 6, 5), 60);
        MigrationBlend trusted = MigrationBlend.of(agreeing, ChangeList.NONE, ImpactAnalysis.AG, neu);
        MigrationBlend doubted = MigrationBlend.of(other, ChangeList.NONE, ImpactAnalysis.AG, neu);
        assertThat(doubted.betweenDeploymentVariance()).isGreaterThanOrEqualTo(trusted.betweenDeploymentVariance());
        if (doubted.betweenDeploymentVariance() > 0 && doubted.reusableOldSamples() > 0) {
            // per sample, the disagreeing profile's weight is below R / (R + Nr)
            double r = doubted.reusableOldSamples();
            double nr = doubted.pooledNewSamples();
            assertThat(doubted.migratedPart().total(Cct.ROOT) / (double) doubted.tree().total(Cct.ROOT))
                    .isLessThan(r / (r + nr) + doubted.tree().size() * 0.5 / doubted.tree().total(Cct.ROOT));
        }
    }

    @Property(tries = 200)
    void contextsNotPooledKeepTheNewDeploymentsShares(@ForAll long seed, @ForAll ImpactAnalysis mode,
            @ForAll @IntRange(min = 1, max = 40) int stacks, @ForAll @IntRange(min = 1, max = 30) int newStacks) {
        Cct old = MigrationTrees.random(seed, stacks, 6, 5);
        Cct neu = MigrationTrees.random(seed + 1, newStacks, 6, 6);
        ChangeList changes = MigrationTrees.randomChanges(seed, 5);
        MigrationBlend blend = MigrationBlend.of(old, changes, mode, neu);
        if (blend.pooledNewSamples() == 0 || blend.phasedOut()) {
            return;
        }
        Cct t = blend.tree();
        double all = t.total(Cct.ROOT);
        long n = neu.total(Cct.ROOT);
        double pooledShare = 0;
        for (int i = 0; i < t.size(); i++) {
            int o = old.indexOf(t.id(i));
            boolean pooled = o >= 0 && !mode.affected(old, changes, neu)[o];
            if (pooled) {
                pooledShare += t.self(i) / all;
            } else {
                int k = neu.indexOf(t.id(i));
                double real = k < 0 ? 0 : (double) neu.self(k) / n;
                // rounding each context to a whole count moves its share by at most 0.5 / all each
                assertThat(Math.abs(t.self(i) / all - real)).as("node %d", i).isLessThanOrEqualTo(t.size() * 0.5 / all
                        + 1e-12);
            }
        }
        assertThat(Math.abs(pooledShare - (double) blend.pooledNewSamples() / n))
                .isLessThanOrEqualTo(t.size() * 0.5 / all + 1e-12);
    }

    private record Expected(boolean phasedOut, double tau2, int blended, int dropped, Map<List<Long>, Double> self,
            Map<List<Long>, Double> migrated) {
    }

    /**
     * Contexts as lists of (method, line) pairs, counted by hand; the expected self counts before
     * rounding. The rule as written in {@link MigrationWeights}: p = (o + n) / (R + Nr), vNew = p(1 -
     * p) / Nr, vOld = p(1 - p) / R + tau2, dropped when 1.96^2 vNew <= vOld, else weight vNew / (vNew
     * + vOld); tau2 = max(0, (Q - (k - 1)) / sum w) over the pooled contexts with samples.
     */
    private static Expected bruteForce(Cct old, ChangeList changes, ImpactAnalysis mode, Cct neu) {
        long n = neu.total(Cct.ROOT);
        Map<List<Long>, Long> oldSelf = selfByPath(old);
        Map<List<Long>, Long> newSelf = selfByPath(neu);
        Set<Long> affectedMethods = affectedMethods(mode, changes, oldSelf.keySet(), newSelf.keySet());
        Set<List<Long>> pooled = new HashSet<>();
        long reusable = 0;
        for (Map.Entry<List<Long>, Long> e : oldSelf.entrySet()) {
            if (!isAffected(mode, e.getKey(), affectedMethods)) {
                pooled.add(e.getKey());
                reusable += e.getValue();
            }
        }
        long pooledNew = 0;
        for (Map.Entry<List<Long>, Long> e : newSelf.entrySet()) {
            if (pooled.contains(e.getKey())) {
                pooledNew += e.getValue();
            }
        }
        Map<List<Long>, Double> self = new HashMap<>();
        Map<List<Long>, Double> migrated = new HashMap<>();
        if (n == 0 || pooledNew == 0 || reusable == 0) {
            for (List<Long> p : pooled) {
                double o = n == 0 ? oldSelf.get(p) : 0;
                self.merge(p, o, Double::sum);
                migrated.merge(p, o, Double::sum);
            }
            newSelf.forEach((p, c) -> self.merge(p, (double) c, Double::sum));
            return new Expected(false, 0, 0, 0, self, migrated);
        }
        // tau2, with the pooled contexts' variance p(1-p)(1/R + 1/Nr)
        double r = reusable;
        double nr = pooledNew;
        double q = 0;
        double sumW = 0;
        int k = 0;
        for (List<Long> c : pooled) {
            long o = oldSelf.get(c);
            long s = newSelf.getOrDefault(c, 0L);
            if (o + s == 0) {
                continue;
            }
            k++;
            double p = (o + s) / (r + nr);
            double variance = p * (1 - p) * (1 / r + 1 / nr);
            if (variance > 0) {
                q += Math.pow(o / r - s / nr, 2) / variance;
                sumW += 1 / variance;
            }
        }
        double tau2 = k < 2 || sumW == 0 ? 0 : Math.max(0, (q - (k - 1)) / sumW);
        Map<List<Long>, Double> weight = new HashMap<>();
        int blended = 0;
        int dropped = 0;
        double sumQ = 0;
        for (List<Long> c : pooled) {
            long o = oldSelf.get(c);
            long s = newSelf.getOrDefault(c, 0L);
            if (o + s == 0) {
                continue;
            }
            double p = (o + s) / (r + nr);
            double vNew = p * (1 - p) / nr;
            double vOld = p * (1 - p) / r + tau2;
            double w = 1.96 * Math.sqrt(vNew) <= Math.sqrt(vOld) ? 0 : vNew / (vNew + vOld);
            weight.put(c, w);
            if (w > 0) {
                blended++;
            } else {
                dropped++;
            }
            sumQ += w * o / r + (1 - w) * s / nr;
        }
        if (blended == 0) {
            return new Expected(true, tau2, 0, dropped, Map.of(), Map.of());
        }
        for (List<Long> c : pooled) {
            double w = weight.getOrDefault(c, 0.0);
            double fromOld = (r + nr) * w * oldSelf.get(c) / r / sumQ;
            self.put(c, fromOld + (r + nr) * (1 - w) * newSelf.getOrDefault(c, 0L) / nr / sumQ);
            migrated.put(c, fromOld);
        }
        for (Map.Entry<List<Long>, Long> e : newSelf.entrySet()) {
            if (!pooled.contains(e.getKey())) {
                self.put(e.getKey(), e.getValue() * (r + nr) / nr);
            }
        }
        return new Expected(false, tau2, blended, dropped, self, migrated);
    }

    /**
     * Every context of {@code t} has its expected self count rounded (the sums' order may differ in
     * the last bits, so within 0.5 plus a hair), every context expected at 1 or more is there, and
     * totals are the sums of self counts below.
     */
    private static void assertMatches(Cct t, Map<List<Long>, Double> expected) {
        Map<List<Long>, Long> actual = selfByPath(t);
        for (Map.Entry<List<Long>, Long> a : actual.entrySet()) {
            double e = expected.getOrDefault(a.getKey(), 0.0);
            assertThat(Math.abs(a.getValue() - e)).as("context %s: %d, expected %s", a.getKey(), a.getValue(), e)
                    .isLessThanOrEqualTo(0.5 + 1e-9);
        }
        expected.forEach((p, e) -> {
            if (e >= 0.5 + 1e-9) {
                assertThat(actual).as("context %s expected at %s", p, e).containsKey(p);
            }
        });
        assertThat(positive(t)).isEqualTo(countsOf(actual));
    }

    private static Cct scaled(Cct t, long factor) {
        Cct out = new Cct(t.size());
        for (int i = 0; i < t.size(); i++) {
            int node = i == Cct.ROOT ? Cct.ROOT : out.child(t.parent(i), t.method(i), t.callSiteLine(i));
            out.addCounts(node, t.self(i) * factor, t.total(i) * factor);
        }
        return out;
    }

    /** BA's method closure over the call edges of both trees; the changed methods for AG and AG_CALLER. */
    private static Set<Long> affectedMethods(ImpactAnalysis mode, ChangeList changes, Set<List<Long>> a,
            Set<List<Long>> b) {
        Set<Long> out = new HashSet<>();
        Set<List<Long>> paths = new HashSet<>(a);
        paths.addAll(b);
        for (List<Long> p : paths) {
            for (int i = 0; i < p.size(); i += 2) {
                if (ImpactAnalysis.isChanged(changes, p.get(i))) {
                    out.add(p.get(i));
                }
            }
        }
        if (mode != ImpactAnalysis.BA) {
            return out;
        }
        for (boolean grew = true; grew; ) {
            grew = false;
            for (List<Long> p : paths) {
                for (int i = 2; i < p.size(); i += 2) {
                    if (out.contains(p.get(i - 2)) && out.add(p.get(i))) {
                        grew = true;
                    }
                }
            }
        }
        return out;
    }

    private static boolean isAffected(ImpactAnalysis mode, List<Long> path, Set<Long> affectedMethods) {
        if (path.isEmpty()) {
            return false;
        }
        if (mode == ImpactAnalysis.AG_CALLER) {
            for (int i = 0; i < path.size(); i += 2) {
                if (affectedMethods.contains(path.get(i))) {
                    return true;
                }
            }
            return false;
        }
        return affectedMethods.contains(path.get(path.size() - 2));
    }

    /** Self counts by path (method, line, method, line, ...); the root is the empty path. */
    private static Map<List<Long>, Long> selfByPath(Cct t) {
        Map<List<Long>, Long> out = new HashMap<>();
        for (int i = 0; i < t.size(); i++) {
            List<Long> path = new ArrayList<>();
            for (int k = i; k != Cct.ROOT; k = t.parent(k)) {
                path.add(0, (long) t.callSiteLine(k));
                path.add(0, t.method(k));
            }
            out.put(path, t.self(i));
        }
        return out;
    }

    /** Node id → [self, total] of the contexts with a positive total, totals summed over extensions. */
    private static Map<Long, List<Long>> countsOf(Map<List<Long>, Long> self) {
        Map<List<Long>, Long> total = new HashMap<>();
        for (Map.Entry<List<Long>, Long> e : self.entrySet()) {
            List<Long> p = e.getKey();
            for (int len = 0; len <= p.size(); len += 2) {
                total.merge(p.subList(0, len), e.getValue(), Long::sum);
            }
        }
        Map<Long, List<Long>> out = new HashMap<>();
        total.forEach((p, t) -> {
            if (t > 0) {
                Cct one = new Cct();
                int node = Cct.ROOT;
                for (int i = 0; i < p.size(); i += 2) {
                    node = one.child(node, p.get(i), p.get(i + 1).intValue());
                }
                out.put(one.id(node), List.of(self.getOrDefault(p, 0L), t));
            }
        });
        return out;
    }

    private static Map<Long, List<Long>> positive(Cct t) {
        Map<Long, List<Long>> out = new HashMap<>();
        for (int i = 0; i < t.size(); i++) {
            if (t.total(i) > 0) {
                out.put(t.id(i), List.of(t.self(i), t.total(i)));
            }
        }
        return out;
    }
}
