package io.cctflow.flink;

import io.cctflow.core.ExecutionId;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Builds SampleBatches for tests. Methods are named {@code T.m<i>} with descriptor {@code ()V}. */
public final class TestBatches {
    private TestBatches() {
    }

    public static ExecutionId execution(String instance) {
        return new ExecutionId("svc", "v1", instance);
    }

    /** Thread names of the stacks, in turn; the pool threads normalise to one name. */
    static final String[] THREADS = {"worker-#", "main", "pool-1-thread-3", "pool-1-thread-4"};

    /**
     * A batch with the given stacks; each stack is method numbers root first, with call-site line
     * 0 for the root and 1 for the rest, count {@code counts[i]}, thread {@code THREADS[i % 4]}.
     */
    public static SampleBatch batch(ExecutionId execution, long sequence, long windowStart, int[][] stacks,
            long[] counts) {
        int maxMethod = 0;
        for (int[] s : stacks) {
            for (int m : s) {
                maxMethod = Math.max(maxMethod, m);
            }
        }
        List<MethodRef> methods = new ArrayList<>();
        for (int i = 0; i <= maxMethod; i++) {
            methods.add(new MethodRef("T", "m" + i, "()V"));
        }
        List<Stack> out = new ArrayList<>();
        for (int s = 0; s < stacks.length; s++) {
            List<Integer> frames = new ArrayList<>();
            List<Integer> lines = new ArrayList<>();
            for (int i = 0; i < stacks[s].length; i++) {
                frames.add(stacks[s][i]);
                lines.add(i == 0 ? 0 : 1);
            }
            out.add(new Stack(frames, lines, THREADS[s % THREADS.length], false, counts[s]));
        }
        InstanceInfo info = new InstanceInfo(execution.service(), execution.version(), execution.instance(),
                "host", 42L, 1_000L, Map.of("zone", "a"));
        return new SampleBatch(info, windowStart, windowStart + 10_000, sequence, 20, methods, out, null, List.of());
    }

    /** Marks the given stacks of {@code batch} truncated (JFR cut their root-most frames); returns it. */
    public static SampleBatch truncate(SampleBatch batch, int... stackIndexes) {
        for (int i : stackIndexes) {
            batch.getStacks().get(i).setTruncated(true);
        }
        return batch;
    }

    /** A random batch over {@code alphabet} methods with recursion. */
    public static SampleBatch random(ExecutionId execution, long sequence, long windowStart, Random random,
            int stacks, int alphabet) {
        int[][] s = new int[stacks][];
        long[] c = new long[stacks];
        for (int i = 0; i < stacks; i++) {
            s[i] = new int[1 + random.nextInt(8)];
            for (int j = 0; j < s[i].length; j++) {
                s[i][j] = random.nextInt(alphabet);
            }
            c[i] = 1 + random.nextInt(4);
        }
        return batch(execution, sequence, windowStart, s, c);
    }

    public static byte[] encode(SampleBatch batch) {
        try {
            ByteBuffer b = batch.toByteBuffer();
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static RawRecord record(SampleBatch batch, long offset) {
        ExecutionId e = new ExecutionId(batch.getInstance().getService(), batch.getInstance().getVersion(),
                batch.getInstance().getInstanceId());
        return new RawRecord("samples", 0, offset, e.key().getBytes(StandardCharsets.UTF_8), encode(batch));
    }
}
