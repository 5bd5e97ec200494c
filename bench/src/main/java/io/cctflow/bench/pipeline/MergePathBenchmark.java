package io.cctflow.bench.pipeline;

import io.cctflow.core.Cct;
import io.cctflow.core.StackCounts;
import io.cctflow.core.TreeCounts;
import io.cctflow.flink.cct.BatchTrees;
import io.cctflow.flink.ingest.DecodedBatch;
import io.cctflow.flink.ingest.MethodDictionary;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.flink.ingest.SampleBatchReader;
import io.cctflow.schema.InstanceInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * CPU per sample of the merge operator's own path on one thread, without Flink, Kafka or Neo4j:
 * decoding the pipeline benchmark's fleet batches ({@link SampleBatchReader}, as the job does) and
 * merging them into each execution's tree ({@link BatchTrees#merge} into a batch's {@code
 * StackCounts} over a topology-only {@code Cct}), for a fleet that starts cold: every execution's
 * tree starts empty, its batches interleaved with the other executions' as they arrive. Timed
 * with this thread's CPU time per batch (encoding the batch is not timed), so other processes on
 * the machine inflate it much less than wall time. Prints ns per sample of each part per round;
 * the first round includes the JIT's warm-up. The third part, counts, is the batch's counts as the
 * job emits them ({@code TreeCounts.selfRowsOf} of the batch's {@code StackCounts}, with its raw
 * thread names; {@code whole}: {@code TreeCounts.of}, as the job did before).
 *
 * <p>Arguments: {@code [instances (400)] [batches per instance (10)] [rounds (5)] [cold|warm (cold)]
 * [self|whole (self)]}: {@code warm} keeps each execution's tree from round to round, so rounds after
 * the first merge into trees that already hold most stacks, as a running fleet's batches do.
 */
public final class MergePathBenchmark {
    private MergePathBenchmark() {
    }

    public static void main(String[] args) {
        int instances = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int batchesPerInstance = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        boolean warm = args.length > 3 && args[3].equals("warm");
        // "whole" for the code before TreeCounts.selfRowsOf (what the job emitted until 2026-11-29)
        boolean selfRows = args.length <= 4 || !args[4].equals("whole");
        StackCorpus corpus = StackCorpus.load();
        EncodedFleetBatches batches = new EncodedFleetBatches(new FleetBatches(corpus, 2, 20, 10_000, new Random(1)),
                256, new Random(2));
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        System.out.printf("%d instances x %d batches of %d samples, %s trees each round%n", instances,
                batchesPerInstance, batches.samplesPerBatch(), warm ? "warm (kept)" : "cold");
        List<double[]> results = new ArrayList<>();
        Cct[] trees = new Cct[instances];
        long checksum = 0;
        for (int round = 1; round <= rounds; round++) {
            SampleBatchReader reader = new SampleBatchReader(new MethodDictionary(100_000));
            if (!warm) {
                trees = new Cct[instances];
            }
            StackCounts counts = null;
            long decodeNanos = 0;
            long mergeNanos = 0;
            long countsNanos = 0;
            long samples = 0;
            long nodes = 0;
            for (int b = 0; b < batchesPerInstance; b++) {
                for (int i = 0; i < instances; i++) {
                    InstanceInfo instance = FleetBatches.instance("fleet", i, 1_000L);
                    byte[] value = batches.encode(instance, b, b * 10_000L, (b + 1) * 10_000L);
                    RawRecord record = new RawRecord("samples", 0, b, null, value);
                    long t0 = cpu.getCurrentThreadCpuTime();
                    DecodedBatch batch;
                    try {
                        batch = reader.read(record);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    long t1 = cpu.getCurrentThreadCpuTime();
                    if (trees[i] == null) {
                        trees[i] = Cct.topologyOnly(16);
                    }
                    counts = counts == null ? new StackCounts(trees[i]) : counts.reset(trees[i]);
                    BatchTrees.merge(batch, BatchTrees.methodIds(batch), counts, t -> { });
                    long t2 = cpu.getCurrentThreadCpuTime();
                    TreeCounts stored = (selfRows ? TreeCounts.selfRowsOf(counts) : TreeCounts.of(counts))
                            .withRawThreadNames(batch.rawThreadNames());
                    long t3 = cpu.getCurrentThreadCpuTime();
                    checksum += stored.nodeIds().length + stored.methodIds().length;
                    decodeNanos += t1 - t0;
                    mergeNanos += t2 - t1;
                    countsNanos += t3 - t2;
                    samples += batches.samplesPerBatch();
                }
            }
            for (Cct t : trees) {
                nodes += t.size();
            }
            double[] r = {decodeNanos / (double) samples, mergeNanos / (double) samples,
                countsNanos / (double) samples};
            results.add(r);
            System.out.printf("round %d: decode %.0f ns/sample, merge %.0f ns/sample, counts %.0f ns/sample"
                    + " (%,d nodes in the trees)%n", round, r[0], r[1], r[2], nodes);
        }
        if (rounds > 1) {
            StringBuilder line = new StringBuilder("median of rounds 2-" + rounds + ":");
            String[] parts = {"decode", "merge", "counts"};
            for (int p = 0; p < parts.length; p++) {
                int part = p;
                double[] sorted = results.stream().skip(1).mapToDouble(r -> r[part]).sorted().toArray();
                line.append(String.format(" %s %.0f ns/sample %s;", parts[p], sorted[sorted.length / 2],
                        Arrays.toString(sorted)));
            }
            System.out.println(line + " (row and method rows: " + checksum + ")");
        }
    }
}
