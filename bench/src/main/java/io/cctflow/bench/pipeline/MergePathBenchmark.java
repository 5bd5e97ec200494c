package io.cctflow.bench.pipeline;

import io.cctflow.core.Cct;
import io.cctflow.core.StackCounts;
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
 * the first round includes the JIT's warm-up.
 *
 * <p>Arguments: {@code [instances (400)] [batches per instance (10)] [rounds (5)]}.
 */
public final class MergePathBenchmark {
    private MergePathBenchmark() {
    }

    public static void main(String[] args) {
        int instances = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int batchesPerInstance = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        StackCorpus corpus = StackCorpus.load();
        EncodedFleetBatches batches = new EncodedFleetBatches(new FleetBatches(corpus, 2, 20, 10_000, new Random(1)),
                256, new Random(2));
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        System.out.printf("%d instances x %d batches of %d samples, cold trees each round%n", instances,
                batchesPerInstance, batches.samplesPerBatch());
        List<double[]> results = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            SampleBatchReader reader = new SampleBatchReader(new MethodDictionary(100_000));
            Cct[] trees = new Cct[instances];
            StackCounts counts = null;
            long decodeNanos = 0;
            long mergeNanos = 0;
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
                    decodeNanos += t1 - t0;
                    mergeNanos += t2 - t1;
                    samples += batches.samplesPerBatch();
                }
            }
            for (Cct t : trees) {
                nodes += t.size();
            }
            double[] r = {decodeNanos / (double) samples, mergeNanos / (double) samples};
            results.add(r);
            System.out.printf("round %d: decode %.0f ns/sample, merge %.0f ns/sample (%,d nodes created)%n", round,
                    r[0], r[1], nodes);
        }
        double[] decode = results.stream().skip(1).mapToDouble(r -> r[0]).sorted().toArray();
        double[] merge = results.stream().skip(1).mapToDouble(r -> r[1]).sorted().toArray();
        if (decode.length > 0) {
            System.out.printf("median of rounds 2-%d: decode %.0f ns/sample, merge %.0f ns/sample; all rounds %s %s%n",
                    rounds, decode[decode.length / 2], merge[merge.length / 2], Arrays.toString(decode),
                    Arrays.toString(merge));
        }
    }
}
