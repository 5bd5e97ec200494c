package io.cctflow.bench.parcs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.core.migration.ImpactAnalysis;
import io.cctflow.core.migration.MethodContexts;
import io.cctflow.core.migration.Migration;
import io.cctflow.core.migration.MigrationQuality;
import io.cctflow.core.migration.ProfileMigration;
import io.cctflow.core.migration.ShareTolerance;
import io.cctflow.flink.cct.BatchTrees;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MigrationStudyTest {
    private static final int METHODS = 8;
    private static final InstanceInfo INSTANCE = InstanceInfo.newBuilder().setService("app").setVersion("2")
            .setInstanceId("app-2-run1").setHost("h").setPid(1).setStartTimeMillis(0).setLabels(Map.of()).build();

    @Test
    void onePassUnderBothTolerancesEqualsTwoSeparateRunsOnRandomTreesAndBatches() {
        Random random = new Random(11);
        List<ShareTolerance> tolerances = List.of(ShareTolerance.absolute(0.01), ShareTolerance.sampling(2));
        for (int trial = 0; trial < 60; trial++) {
            Cct old = new Cct();
            for (SampleBatch b : batches(random, 1 + random.nextInt(3))) {
                BatchTrees.mergeComplete(b, old);
            }
            List<SampleBatch> newBatches = batches(random, 1 + random.nextInt(8));
            Cct reference = new Cct();
            newBatches.forEach(b -> BatchTrees.mergeComplete(b, reference));
            ChangeList changes = new ChangeList(someMethods(random), someMethods(random), someMethods(random));

            List<List<MigrationStudy.Result>> onePass = MigrationStudy.run(old, reference, changes, newBatches,
                    tolerances);

            assertThat(onePass).hasSize(2);
            for (int i = 0; i < tolerances.size(); i++) {
                assertThat(withoutOverhead(onePass.get(i))).as("trial %d, %s", trial, tolerances.get(i))
                        .isEqualTo(withoutOverhead(separateRun(old, reference, changes, newBatches, tolerances.get(i))));
            }
        }
    }

    @Test
    void severalOlderProfilesInOnePassEqualSeparateRunsPerOlderProfileOnRandomTreesAndBatches() {
        Random random = new Random(23);
        List<ShareTolerance> tolerances = List.of(ShareTolerance.absolute(0.01), ShareTolerance.sampling(2));
        for (int trial = 0; trial < 60; trial++) {
            List<Cct> olds = new ArrayList<>();
            for (int o = 0, count = 1 + random.nextInt(3); o < count; o++) {
                Cct old = new Cct();
                for (SampleBatch b : batches(random, 1 + random.nextInt(3))) {
                    BatchTrees.mergeComplete(b, old);
                }
                olds.add(old);
            }
            List<SampleBatch> newBatches = batches(random, 1 + random.nextInt(8));
            Cct reference = new Cct();
            newBatches.forEach(b -> BatchTrees.mergeComplete(b, reference));
            // each older profile under a change list of its own (none, as for another JVM of the same release, or random)
            List<ChangeList> changes = new ArrayList<>();
            List<MigrationStudy.Older> older = new ArrayList<>();
            for (Cct old : olds) {
                changes.add(random.nextInt(3) == 0 ? ChangeList.NONE
                        : new ChangeList(someMethods(random), someMethods(random), someMethods(random)));
                older.add(new MigrationStudy.Older(old, changes.get(changes.size() - 1)));
            }

            List<List<List<MigrationStudy.Result>>> onePass = MigrationStudy.run(older, reference, newBatches, tolerances);

            assertThat(onePass).hasSize(olds.size());
            for (int o = 0; o < olds.size(); o++) {
                List<List<MigrationStudy.Result>> separate = MigrationStudy.run(olds.get(o), reference, changes.get(o),
                        newBatches, tolerances);
                assertThat(onePass.get(o)).hasSize(tolerances.size());
                for (int i = 0; i < tolerances.size(); i++) {
                    assertThat(withoutOverhead(onePass.get(o).get(i)))
                            .as("trial %d, older profile %d, %s", trial, o, tolerances.get(i))
                            .isEqualTo(withoutOverhead(separate.get(i)))
                            .isEqualTo(withoutOverhead(separateRun(olds.get(o), reference, changes.get(o), newBatches,
                                    tolerances.get(i))));
                }
            }
        }
    }

    @Test
    void heartbeatsWithoutStacksAreNoStepOfTheReplayOnRandomTreesAndBatches() {
        Random random = new Random(37);
        List<ShareTolerance> tolerances = List.of(ShareTolerance.absolute(0.01), ShareTolerance.sampling(2));
        int shifted = 0;
        for (int trial = 0; trial < 60; trial++) {
            Cct old = new Cct();
            for (SampleBatch b : batches(random, 1 + random.nextInt(3))) {
                BatchTrees.mergeComplete(b, old);
            }
            List<SampleBatch> newBatches = batches(random, 1 + random.nextInt(8));
            Cct reference = new Cct();
            newBatches.forEach(b -> BatchTrees.mergeComplete(b, reference));
            ChangeList changes = new ChangeList(someMethods(random), someMethods(random), someMethods(random));
            // stats-only heartbeats first, between and after the batches, sequence numbers in turn
            List<SampleBatch> withHeartbeats = new ArrayList<>();
            for (SampleBatch b : newBatches) {
                for (int h = random.nextInt(3); h > 0; h--) {
                    withHeartbeats.add(heartbeat(withHeartbeats.size()));
                }
                withHeartbeats.add(SampleBatch.newBuilder(b).setSequence(withHeartbeats.size()).build());
            }
            withHeartbeats.add(heartbeat(withHeartbeats.size()));

            List<List<MigrationStudy.Result>> with = MigrationStudy.run(old, reference, changes, withHeartbeats,
                    tolerances);
            List<List<MigrationStudy.Result>> without = MigrationStudy.run(old, reference, changes, newBatches,
                    tolerances);

            for (int i = 0; i < tolerances.size(); i++) {
                assertThat(withoutOverhead(with.get(i))).as("trial %d, %s", trial, tolerances.get(i))
                        .isEqualTo(withoutOverhead(without.get(i)));
                List<MigrationStudy.Result> counted = separateRun(old, reference, changes, withHeartbeats,
                        tolerances.get(i));
                if (!withoutOverhead(counted).equals(withoutOverhead(without.get(i)))) {
                    shifted++;
                }
            }
        }
        assertThat(shifted).as("draws in which counting the heartbeats would have changed a result").isPositive();
    }

    /** A batch without methods and stacks, with stats only, as the agent sends for an idle flush interval. */
    private static SampleBatch heartbeat(long sequence) {
        return SampleBatch.newBuilder().setInstance(INSTANCE).setWindowStartMillis(sequence * 2000L)
                .setWindowEndMillis(sequence * 2000L + 2000).setSequence(sequence).setSamplingPeriodMillis(1)
                .setMethods(List.of()).setStacks(List.of()).setStats(null).build();
    }

    /** MigrationStudy.run as it was before the one pass: prefix trees rebuilt for one tolerance. */
    private static List<MigrationStudy.Result> separateRun(Cct storedOld, Cct storedReference, ChangeList changes,
            List<SampleBatch> newBatches, ShareTolerance tolerance) {
        Cct oldTree = MethodContexts.of(storedOld);
        Cct reference = MethodContexts.of(storedReference);
        double[] prefixAcc = new double[newBatches.size()];
        long[] prefixSamples = new long[newBatches.size()];
        Cct partial = new Cct();
        for (int k = 0; k < newBatches.size(); k++) {
            BatchTrees.mergeComplete(newBatches.get(k), partial);
            prefixSamples[k] = partial.total(Cct.ROOT);
            Migration scratch = ProfileMigration.migrate(new Cct(), ChangeList.NONE, ImpactAnalysis.AG,
                    MethodContexts.of(partial));
            prefixAcc[k] = MigrationQuality.of(scratch, reference, tolerance).acc();
        }
        List<MigrationStudy.Result> results = new ArrayList<>();
        for (ImpactAnalysis mode : ImpactAnalysis.values()) {
            Migration migration = ProfileMigration.migrate(oldTree, changes, mode, new Cct());
            MigrationQuality quality = MigrationQuality.of(migration, reference, tolerance);
            int k = 0;
            while (k < prefixAcc.length && prefixAcc[k] < quality.acc()) {
                k++;
            }
            boolean reached = k < prefixAcc.length;
            results.add(new MigrationStudy.Result(mode, quality, migration.reusableCount(), oldTree.size() - 1,
                    reached ? prefixSamples[k] : -1, reached ? k + 1 : -1, reference.total(Cct.ROOT), 0));
        }
        return results;
    }

    private static List<MigrationStudy.Result> withoutOverhead(List<MigrationStudy.Result> results) {
        return results.stream().map(r -> new MigrationStudy.Result(r.mode(), r.quality(), r.reusableNodes(),
                r.oldNodes(), r.samplesNeeded(), r.batchesNeeded(), r.newSamples(), 0)).toList();
    }

    private static long[] someMethods(Random random) {
        return random.ints(random.nextInt(3), 0, METHODS)
                .mapToLong(m -> MethodId.of("a.C", "m" + m, "()V")).distinct().toArray();
    }

    /** Batches of random stacks over a few methods and lines, so contexts repeat and differ. */
    private static List<SampleBatch> batches(Random random, int count) {
        List<SampleBatch> out = new ArrayList<>();
        List<MethodRef> methods = new ArrayList<>();
        for (int m = 0; m < METHODS; m++) {
            methods.add(new MethodRef("a.C", "m" + m, "()V"));
        }
        for (int seq = 0; seq < count; seq++) {
            List<Stack> stacks = new ArrayList<>();
            int distinct = 1 + random.nextInt(12);
            for (int s = 0; s < distinct; s++) {
                int depth = 1 + random.nextInt(4);
                List<Integer> frames = new ArrayList<>();
                List<Integer> lines = new ArrayList<>();
                for (int d = 0; d < depth; d++) {
                    frames.add(d == 0 ? 0 : random.nextInt(METHODS));
                    lines.add(d == 0 ? 0 : 1 + random.nextInt(2));
                }
                stacks.add(new Stack(frames, lines, "main", false, 1L + random.nextInt(40)));
            }
            out.add(SampleBatch.newBuilder().setInstance(INSTANCE).setWindowStartMillis(seq * 2000L)
                    .setWindowEndMillis(seq * 2000L + 2000).setSequence(seq).setSamplingPeriodMillis(1)
                    .setMethods(methods).setStacks(stacks).setStats(null).build());
        }
        return out;
    }
}
