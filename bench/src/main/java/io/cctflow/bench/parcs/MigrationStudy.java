package io.cctflow.bench.parcs;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.core.migration.ImpactAnalysis;
import io.cctflow.core.migration.MethodContexts;
import io.cctflow.core.migration.Migration;
import io.cctflow.core.migration.MigrationQuality;
import io.cctflow.core.migration.ProfileMigration;
import io.cctflow.core.migration.ShareTolerance;
import io.cctflow.flink.cct.BatchTrees;
import io.cctflow.schema.SampleBatch;
import java.util.ArrayList;
import java.util.List;

/**
 * Profile migration (seed 001) of the older release's profile to the newer release, measured
 * against the newer release's real profile, and its streaming analogue of time saved: how many of
 * the newer release's samples, in the order they arrived, a profile built from scratch needs before
 * it is as accurate as the migrated one.
 */
final class MigrationStudy {
    private MigrationStudy() {
    }

    /**
     * @param reusableNodes old-tree nodes the impact analysis judged reusable
     * @param samplesNeeded the newer release's samples (whole batches, in sequence order) after which
     *     a from-scratch profile first reached the migrated profile's Acc; -1 when it never did
     * @param batchesNeeded those batches; -1 when never
     * @param newSamples every sample of the newer release's run
     * @param overheadMillis time the migration and its measurement took
     */
    record Result(ImpactAnalysis mode, MigrationQuality quality, int reusableNodes, int oldNodes, long samplesNeeded,
            int batchesNeeded, long newSamples, double overheadMillis) {

        /** Share of the newer release's samples that migration made unnecessary; 0 when never reached. */
        double samplesSavedShare() {
            return samplesNeeded < 0 || newSamples == 0 ? 0.0 : (double) samplesNeeded / newSamples;
        }
    }

    /**
     * Contexts are matched by their methods alone ({@link MethodContexts}): every tree is projected
     * before it is migrated or measured, because call-site lines move between releases.
     *
     * @param storedOld the older release's stored profile
     * @param storedReference the newer release's stored profile (the real new profile)
     * @param newBatches the newer release's batches in sequence order
     * @param tolerance when a share counts as correct, for Acc and the discrimination ({@link MigrationQuality#of})
     */
    static List<Result> run(Cct storedOld, Cct storedReference, ChangeList changes, List<SampleBatch> newBatches,
            ShareTolerance tolerance) {
        return run(storedOld, storedReference, changes, newBatches, List.of(tolerance)).get(0);
    }

    /**
     * {@link #run(Cct, Cct, ChangeList, List, ShareTolerance)} under several tolerances in one pass:
     * the from-scratch profile of every prefix of the newer release's batches is built once and
     * measured under each tolerance.
     *
     * @return one list of results per tolerance, in the order given
     */
    static List<List<Result>> run(Cct storedOld, Cct storedReference, ChangeList changes, List<SampleBatch> newBatches,
            List<ShareTolerance> tolerances) {
        return run(List.of(new Older(storedOld, changes)), storedReference, newBatches, tolerances).get(0);
    }

    /**
     * An older profile and the change list from its code to the newer run's ({@link ChangeList#NONE}
     * for another JVM of the same release).
     */
    record Older(Cct storedProfile, ChangeList changes) {
    }

    /**
     * Several older profiles (e.g. both JVMs of the older release, and the newer release's other JVM
     * with no change) migrated to one newer run under several tolerances in one pass: the
     * from-scratch prefix profiles depend only on the newer run's batches, so they are built and
     * measured once, and each older profile's migration is measured against them. The same as one
     * {@link #run(Cct, Cct, ChangeList, List, List)} per older profile.
     *
     * <p>A batch without stacks (an agent's stats-only heartbeat for a flush interval in which it
     * sampled nothing) is no step of the replay: {@code batchesNeeded} counts batches with samples,
     * as it did before agents sent heartbeats.
     *
     * @param olds the older profiles, each migrated on its own under its own change list
     * @return per older profile (in the order given), one list of results per tolerance (in the order given)
     */
    static List<List<List<Result>>> run(List<Older> olds, Cct storedReference, List<SampleBatch> allNewBatches,
            List<ShareTolerance> tolerances) {
        List<SampleBatch> newBatches = allNewBatches.stream().filter(b -> !b.getStacks().isEmpty()).toList();
        Cct reference = MethodContexts.of(storedReference);
        int t = tolerances.size();
        double[][] prefixAcc = new double[t][newBatches.size()];
        long[] prefixSamples = new long[newBatches.size()];
        Cct partial = new Cct();
        for (int k = 0; k < newBatches.size(); k++) {
            SampleBatch batch = newBatches.get(k);
            BatchTrees.mergeComplete(batch, partial);
            prefixSamples[k] = partial.total(Cct.ROOT);
            Migration scratch = ProfileMigration.migrate(new Cct(), ChangeList.NONE, ImpactAnalysis.AG,
                    MethodContexts.of(partial));
            for (int i = 0; i < t; i++) {
                prefixAcc[i][k] = MigrationQuality.of(scratch, reference, tolerances.get(i)).acc();
            }
        }
        List<List<List<Result>>> perOld = new ArrayList<>();
        for (Older older : olds) {
            Cct oldTree = MethodContexts.of(older.storedProfile());
            List<List<Result>> results = new ArrayList<>();
            for (int i = 0; i < t; i++) {
                results.add(new ArrayList<>());
            }
            for (ImpactAnalysis mode : ImpactAnalysis.values()) {
                long start = System.nanoTime();
                Migration migration = ProfileMigration.migrate(oldTree, older.changes(), mode, new Cct());
                double migrationMillis = (System.nanoTime() - start) / 1e6;
                for (int i = 0; i < t; i++) {
                    long measured = System.nanoTime();
                    MigrationQuality quality = MigrationQuality.of(migration, reference, tolerances.get(i));
                    double overhead = migrationMillis + (System.nanoTime() - measured) / 1e6;
                    int k = 0;
                    while (k < prefixAcc[i].length && prefixAcc[i][k] < quality.acc()) {
                        k++;
                    }
                    boolean reached = k < prefixAcc[i].length;
                    results.get(i).add(new Result(mode, quality, migration.reusableCount(), oldTree.size() - 1,
                            reached ? prefixSamples[k] : -1, reached ? k + 1 : -1, reference.total(Cct.ROOT),
                            overhead));
                }
            }
            perOld.add(results);
        }
        return perOld;
    }
}
