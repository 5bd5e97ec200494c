package io.cctflow.bench.query;

import io.cctflow.bench.pipeline.StackCorpus;
import io.cctflow.core.Cct;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.PackedLongs;
import io.cctflow.graph.PackedWindow;
import io.cctflow.graph.SelfCounts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A window's stored bytes and decode time, in the layout before (one {@link PackedLongs} property
 * per column), packed ({@link PackedWindow} format 1) and projected ({@link SelfCounts}, packed
 * format 2, what windows are stored as), without Neo4j: an hour of one-minute windows of
 * {@code samplesPerWindow} samples drawn from the query benchmark's corpus as its dataset draws them,
 * and their sum (an hourly roll-up). Decode time: median over 41 rounds of the hour's windows.
 *
 * <p>Usage: {@code WindowLayoutProbe [samplesPerWindow, default 100]}.
 */
public final class WindowLayoutProbe {
    private static final int WINDOWS = 60;
    private static final int ROUNDS = 41;

    private WindowLayoutProbe() {
    }

    public static void main(String[] args) {
        int samples = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        CorpusStacks stacks = new CorpusStacks(StackCorpus.load());
        Random random = new Random(1);
        List<TreeCounts> hour = new ArrayList<>();
        for (int w = 0; w < WINDOWS; w++) {
            int[] counts = new int[stacks.stackCount()];
            for (int i = 0; i < samples; i++) {
                counts[stacks.corpus().draw(random)]++;
            }
            Cct tree = new Cct();
            for (int s = 0; s < counts.length; s++) {
                if (counts[s] > 0) {
                    stacks.add(tree, s, counts[s]);
                }
            }
            hour.add(TreeCounts.of(tree));
        }
        long columns = 0;
        long packed = 0;
        long projected = 0;
        long nodes = 0;
        long projectedNodes = 0;
        for (TreeCounts c : hour) {
            columns += columnBytes(c);
            packed += PackedWindow.pack(c).length;
            TreeCounts p = SelfCounts.project(c);
            projected += PackedWindow.pack(p).length;
            nodes += c.nodeIds().length;
            projectedNodes += p.nodeIds().length;
        }
        TreeCounts sum = TreeCounts.sum(hour);
        System.out.printf("%d samples per window: %,d nodes per window (%,d with self > 0); bytes per window: columns"
                        + " %,d, packed %,d, projected %,d; hourly sum (%,d nodes): columns %,d, packed %,d,"
                        + " projected %,d%n", samples, nodes / WINDOWS, projectedNodes / WINDOWS,
                columns / WINDOWS, packed / WINDOWS, projected / WINDOWS, sum.nodeIds().length, columnBytes(sum),
                PackedWindow.pack(sum).length, PackedWindow.pack(SelfCounts.project(sum)).length);
        timeDecoding(hour);
    }

    private static long columnBytes(TreeCounts c) {
        long bytes = 0;
        for (long[] column : columns(c)) {
            bytes += PackedLongs.pack(column).length;
        }
        return bytes;
    }

    private static long[][] columns(TreeCounts c) {
        return new long[][] {c.nodeIds(), c.self(), c.total(), c.threadNodeIds(), c.threadIds(), c.threadSelf(),
            c.threadDictIds(), c.methodIds(), c.methodSamples(), c.methodSelf()};
    }

    private static void timeDecoding(List<TreeCounts> hour) {
        List<byte[][]> stored = new ArrayList<>();
        List<byte[]> packed = new ArrayList<>();
        for (TreeCounts c : hour) {
            long[][] cols = columns(c);
            byte[][] bytes = new byte[cols.length][];
            for (int k = 0; k < cols.length; k++) {
                bytes[k] = PackedLongs.pack(cols[k]);
            }
            stored.add(bytes);
            packed.add(PackedWindow.pack(c));
        }
        double[] before = new double[ROUNDS];
        double[] after = new double[ROUNDS];
        long rows = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < stored.size(); i++) {
                byte[][] b = stored.get(i);
                rows += TreeCounts.of(PackedLongs.unpack(b[0]), PackedLongs.unpack(b[1]), PackedLongs.unpack(b[2]),
                        PackedLongs.unpack(b[3]), PackedLongs.unpack(b[4]), PackedLongs.unpack(b[5]),
                        PackedLongs.unpack(b[6]), hour.get(i).threadDictNames(), PackedLongs.unpack(b[7]),
                        PackedLongs.unpack(b[8]), PackedLongs.unpack(b[9])).nodeIds().length;
            }
            long t1 = System.nanoTime();
            for (byte[] p : packed) {
                rows += PackedWindow.unpack(p).nodeIds().length;
            }
            long t2 = System.nanoTime();
            before[round] = (t1 - t0) / 1e3 / WINDOWS;
            after[round] = (t2 - t1) / 1e3 / WINDOWS;
        }
        Arrays.sort(before);
        Arrays.sort(after);
        System.out.printf("decode per window (median of %d rounds): columns %.0f µs, packed %.0f µs (%,d rows)%n",
                ROUNDS, before[ROUNDS / 2], after[ROUNDS / 2], rows);
    }
}
