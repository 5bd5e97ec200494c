package io.cctflow.bench.migration;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.core.migration.ImpactAnalysis;
import io.cctflow.core.migration.Migration;
import io.cctflow.core.migration.ProfileMigration;
import java.util.Arrays;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * The blend {@code MigrationBlend} served before its per-context rule, kept here only to measure
 * both rules on the same run: under AG every pooled context (old, reusable) has its old plus new
 * self samples (every sample counting once), every other context its new samples times {@code (R +
 * Nr) / Nr}, and the migration is dropped as a whole from 9,604 new samples on.
 */
final class FixedPhaseOut {
    static final long MIN_SAMPLES = 9_604;

    private FixedPhaseOut() {
    }

    /** The change list that marks every method whose signature contains {@code changed} as modified. */
    static ChangeList changes(Cct old, Cct young, String changed) {
        long[] ids = LongStream.concat(idsOf(old), idsOf(young)).distinct().toArray();
        return new ChangeList(new long[0], new long[0], Arrays.stream(ids)
                .filter(id -> MigrationAccuracyBenchmark.signatureOf(id).contains(changed)).toArray());
    }

    private static LongStream idsOf(Cct t) {
        return IntStream.range(1, t.size()).mapToLong(t::method);
    }

    static Cct answer(Cct old, ChangeList changes, Cct young) {
        long n = young.total(Cct.ROOT);
        if (n >= MIN_SAMPLES) {
            return young;
        }
        Migration m = ProfileMigration.migrate(old, changes, ImpactAnalysis.AG, young);
        Cct merged = m.tree();
        boolean[] pooled = new boolean[merged.size()];
        long reusable = m.migratedTotal(Cct.ROOT);
        long pooledNew = 0;
        for (int i = 0; i < merged.size(); i++) {
            int o = old.indexOf(merged.id(i));
            pooled[i] = o >= 0 && m.isReusable(o);
            if (pooled[i]) {
                pooledNew += merged.self(i) - m.migratedSelf(i);
            }
        }
        double scale = pooledNew > 0 ? (double) (reusable + pooledNew) / pooledNew : 1;
        boolean keepOld = pooledNew > 0 || n == 0;
        Cct out = new Cct(merged.size());
        long[] total = new long[merged.size()];
        long[] self = new long[merged.size()];
        for (int i = 0; i < merged.size(); i++) {
            long fromOld = keepOld ? m.migratedSelf(i) : 0;
            long fromNew = merged.self(i) - m.migratedSelf(i);
            self[i] = pooled[i] ? fromOld + fromNew : Math.round(fromNew * scale);
            total[i] = self[i];
        }
        for (int i = merged.size() - 1; i > 0; i--) {
            total[merged.parent(i)] += total[i];
        }
        for (int i = 0; i < merged.size(); i++) {
            int node = i == Cct.ROOT ? Cct.ROOT : out.child(merged.parent(i), merged.method(i), merged.callSiteLine(i));
            out.addCounts(node, self[i], total[i]);
        }
        return out;
    }
}
