package io.cctflow.core.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** {@link MigrationBlend} against a brute force over paths, on random trees and change lists. */
class MigrationBlendPropertyTest {

    @Property(tries = 300)
    void blendEqualsTheBruteForceOverPaths(@ForAll long seed, @ForAll ImpactAnalysis mode,
            @ForAll @IntRange(min = 0, max = 40) int stacks, @ForAll @IntRange(min = 0, max = 30) int newStacks,
            @ForAll @IntRange(min = 0, max = 200) int minSamples) {
        Cct old = MigrationTrees.random(seed, stacks, 6, 5);
        Cct neu = MigrationTrees.random(seed + 1, newStacks, 6, 6);
        ChangeList changes = MigrationTrees.randomChanges(seed, 5);
        MigrationBlend blend = MigrationBlend.of(old, changes, mode, neu, new MigrationBlend.PhaseOut(minSamples));

        Expected e = bruteForce(old, changes, mode, neu, minSamples);
        assertThat(blend.phasedOut()).isEqualTo(e.phasedOut);
        assertThat(positive(blend.tree())).isEqualTo(e.tree);
        assertThat(positive(blend.migratedPart())).isEqualTo(e.migrated);
        assertThat(blend.newSamples()).isEqualTo(neu.total(Cct.ROOT));
        if (!blend.phasedOut()) {
            for (int n = 0; n < blend.tree().size(); n++) {
                assertThat(blend.migratedPart().id(n)).as("same indexes").isEqualTo(blend.tree().id(n));
                assertThat(blend.isMigrated(n)).isEqualTo(blend.migratedPart().total(n) > 0);
            }
        }
    }

    @Property(tries = 200)
    void contextsNotPooledKeepTheNewDeploymentsShares(@ForAll long seed, @ForAll ImpactAnalysis mode,
            @ForAll @IntRange(min = 1, max = 40) int stacks, @ForAll @IntRange(min = 1, max = 30) int newStacks) {
        Cct old = MigrationTrees.random(seed, stacks, 6, 5);
        Cct neu = MigrationTrees.random(seed + 1, newStacks, 6, 6);
        ChangeList changes = MigrationTrees.randomChanges(seed, 5);
        MigrationBlend blend = MigrationBlend.of(old, changes, mode, neu, new MigrationBlend.PhaseOut(Long.MAX_VALUE));
        if (blend.pooledNewSamples() == 0) {
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

    private record Expected(boolean phasedOut, Map<Long, List<Long>> tree, Map<Long, List<Long>> migrated) {
    }

    /** Contexts as lists of (method, line) pairs, counted by hand. */
    private static Expected bruteForce(Cct old, ChangeList changes, ImpactAnalysis mode, Cct neu, long minSamples) {
        long n = neu.total(Cct.ROOT);
        if (n >= minSamples) {
            return new Expected(true, positive(neu), Map.of());
        }
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
        double scale = pooledNew > 0 ? (double) (reusable + pooledNew) / pooledNew : 1;
        boolean keepOld = pooledNew > 0 || n == 0;
        Map<List<Long>, Long> self = new HashMap<>();
        Map<List<Long>, Long> migrated = new HashMap<>();
        for (List<Long> p : pooled) {
            long fromOld = keepOld ? oldSelf.get(p) : 0;
            self.merge(p, fromOld + newSelf.getOrDefault(p, 0L), Long::sum);
            migrated.merge(p, fromOld, Long::sum);
        }
        for (Map.Entry<List<Long>, Long> e : newSelf.entrySet()) {
            if (!pooled.contains(e.getKey())) {
                self.merge(e.getKey(), Math.round(e.getValue() * scale), Long::sum);
            }
        }
        return new Expected(false, countsOf(self), countsOf(migrated));
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
