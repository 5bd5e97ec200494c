package io.cctflow.flink.ingest;

import io.cctflow.core.RawThreadNames;
import io.cctflow.model.MethodRecord;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.PoolThreads;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A decoded, validated {@link SampleBatch} in flat primitive arrays, as the merge needs it: the
 * method dictionary as {@link MethodRecord}s (names normalised, ids computed), and the stacks'
 * frames and lines one after another in two {@code int} arrays, stack {@code s} at {@code
 * [stackStart(s), stackStart(s + 1))}. Written by {@link SampleBatchReader}; read-only afterwards
 * by contract (the arrays are exposed without copying). Not thread-safe.
 */
public final class DecodedBatch {
    InstanceInfo instance;
    long windowStartMillis;
    long windowEndMillis;
    long sequence;
    int samplingPeriodMillis;
    MethodRecord[] methods = new MethodRecord[0];
    int stacks;
    /** stackStarts[s] = index of stack s's first frame; stackStarts[stacks] = frames in all. */
    int[] stackStarts = new int[1];
    int[] frames = new int[0];
    int[] lines = new int[0];
    String[] threads = new String[0];
    boolean[] truncated = new boolean[0];
    long[] counts = new long[0];
    /** The raw thread names of the batch, every pool's together. */
    List<String> rawThreadNames = List.of();

    DecodedBatch() {
    }

    /**
     * The flat form of a batch decoded by Avro's generated classes, with {@code dictionary}'s records
     * (no validation: {@link BatchDecoder#decode} validates).
     */
    public static DecodedBatch of(SampleBatch batch, MethodDictionary dictionary) {
        DecodedBatch d = new DecodedBatch();
        d.instance = batch.getInstance();
        d.windowStartMillis = batch.getWindowStartMillis();
        d.windowEndMillis = batch.getWindowEndMillis();
        d.sequence = batch.getSequence();
        d.samplingPeriodMillis = batch.getSamplingPeriodMillis();
        d.methods = batch.getMethods().stream()
                .map(m -> dictionary.record(m.getClassName(), m.getMethodName(), m.getDescriptor()))
                .toArray(MethodRecord[]::new);
        List<Stack> stacks = batch.getStacks();
        d.allocateStacks(stacks.size());
        int frames = 0;
        for (Stack s : stacks) {
            frames += s.getFrames().size();
        }
        d.frames = new int[frames];
        d.lines = new int[frames];
        int at = 0;
        for (Stack s : stacks) {
            d.stackStarts[d.stacks] = at;
            for (int i = 0; i < s.getFrames().size(); i++) {
                d.frames[at] = s.getFrames().get(i);
                d.lines[at++] = s.getLines().get(i);
            }
            d.threads[d.stacks] = s.getThread();
            d.truncated[d.stacks] = s.getTruncated();
            d.counts[d.stacks++] = s.getCount();
        }
        d.stackStarts[d.stacks] = at;
        List<String> raw = new ArrayList<>();
        for (PoolThreads pool : batch.getRawThreadNames()) {
            raw.addAll(pool.getRaw());
        }
        d.rawThreadNames = raw;
        return d;
    }

    void allocateStacks(int n) {
        if (threads.length < n) {
            stackStarts = Arrays.copyOf(stackStarts, n + 1);
            threads = Arrays.copyOf(threads, n);
            truncated = Arrays.copyOf(truncated, n);
            counts = Arrays.copyOf(counts, n);
        }
    }

    public InstanceInfo instance() {
        return instance;
    }

    public long windowStartMillis() {
        return windowStartMillis;
    }

    public long windowEndMillis() {
        return windowEndMillis;
    }

    public long sequence() {
        return sequence;
    }

    public int samplingPeriodMillis() {
        return samplingPeriodMillis;
    }

    /** The method dictionary: stack frames index into it. */
    public MethodRecord[] methods() {
        return methods;
    }

    /** Number of stacks. */
    public int stacks() {
        return stacks;
    }

    /** Index in {@link #frames()} and {@link #lines()} of stack {@code s}'s outermost frame. */
    public int stackStart(int s) {
        return stackStarts[s];
    }

    /**
     * Where each stack's frames start in {@link #frames()} and {@link #lines()}, and at {@code
     * [stacks()]} where they all end: stack {@code s} is {@code [stackStarts()[s], stackStarts()[s + 1])}.
     */
    public int[] stackStarts() {
        return stackStarts;
    }

    /** Frames of stack {@code s}. */
    public int depth(int s) {
        return stackStarts[s + 1] - stackStarts[s];
    }

    /** Dictionary indexes of all stacks' frames, each stack root (outermost) frame first. */
    public int[] frames() {
        return frames;
    }

    /** Call-site lines, parallel to {@link #frames()}. */
    public int[] lines() {
        return lines;
    }

    /**
     * The raw (un-normalised) thread names the agent saw, bounded per pool by the agent
     * ({@link RawThreadNames#of} bounds them again); empty for batches of agents that did not send them.
     */
    public RawThreadNames rawThreadNames() {
        return RawThreadNames.of(rawThreadNames);
    }

    public String thread(int s) {
        return threads[s];
    }

    public boolean truncated(int s) {
        return truncated[s];
    }

    public long count(int s) {
        return counts[s];
    }
}
