package io.cctflow.bench.rollup;

import io.cctflow.bench.query.CorpusStacks;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.SelfCounts;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One deployment of busy instances: which one-minute window each (instance, minute) holds. Drawing
 * 6,000 corpus stacks per instance-minute for 1,000 instances and an hour (60,000 windows) would
 * cost more than the write, so a pool of {@code poolSize} (a prime) busy minutes is drawn once
 * and instance {@code k}'s minute {@code m} of hour {@code h} holds pool window
 * {@code (31 k + 7 m + 13 h) mod poolSize}: the 60 minutes of one instance-hour are 60 different
 * windows (7 is invertible mod a prime above 60), and instances differ in which. Each pool window
 * is a real draw from the recorded corpus, in proportion to how often its stacks were recorded, and
 * is stored as the graph store stores it ({@link SelfCounts#project}).
 *
 * <p>Immutable after construction.
 */
final class BusyFleet {
    static final String SERVICE = "rollup-fleet";
    static final String VERSION = "1.0";
    static final long MINUTE_MILLIS = 60_000;
    static final int MINUTES_PER_HOUR = 60;

    private final TreeCounts[] pool;

    private BusyFleet(TreeCounts[] pool) {
        this.pool = pool;
    }

    /** Draws {@code poolSize} windows of {@code samplesPerWindow} corpus stacks each. */
    static BusyFleet draw(CorpusStacks stacks, int poolSize, int samplesPerWindow, long seed) {
        if (poolSize <= MINUTES_PER_HOUR || !java.math.BigInteger.valueOf(poolSize).isProbablePrime(30)) {
            throw new IllegalArgumentException("--pool must be a prime above " + MINUTES_PER_HOUR
                    + " (so an instance's 60 minutes are 60 different windows), was " + poolSize);
        }
        Random random = new Random(seed);
        TreeCounts[] pool = new TreeCounts[poolSize];
        for (int p = 0; p < poolSize; p++) {
            pool[p] = SelfCounts.project(TreeCounts.of(stacks.draw(random, samplesPerWindow)));
        }
        return new BusyFleet(pool);
    }

    static String executionKey(int instance) {
        return new ExecutionId(SERVICE, VERSION, instanceId(instance)).key();
    }

    static String instanceId(int instance) {
        return String.format("busy-%04d", instance);
    }

    int poolSize() {
        return pool.length;
    }

    TreeCounts poolWindow(int p) {
        return pool[p];
    }

    /** The pool window instance {@code instance} holds at minute {@code minute} of hour number {@code hour}. */
    int poolIndex(int instance, int hour, int minute) {
        return (int) ((31L * instance + 7L * minute + 13L * hour) % pool.length);
    }

    /** Instance {@code instance}'s 60 fine windows of the hour starting at {@code hourStart} (hour number {@code hour}). */
    List<WindowCounts> instanceHour(int instance, int hour, long hourStart) {
        List<WindowCounts> out = new ArrayList<>(MINUTES_PER_HOUR);
        String key = executionKey(instance);
        for (int m = 0; m < MINUTES_PER_HOUR; m++) {
            long start = hourStart + m * MINUTE_MILLIS;
            out.add(new WindowCounts(key, start, start + MINUTE_MILLIS, pool[poolIndex(instance, hour, m)]));
        }
        return out;
    }

    /** Minutes of an hour that start in the ten-minute slot {@code slot} (0-5). */
    static int[] minutesOfSlot(int slot) {
        int per = (int) (Resolution.TEN_MINUTES.millis() / MINUTE_MILLIS);
        int[] out = new int[per];
        for (int i = 0; i < per; i++) {
            out[i] = slot * per + i;
        }
        return out;
    }
}
