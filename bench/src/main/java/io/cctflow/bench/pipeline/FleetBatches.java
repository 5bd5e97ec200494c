package io.cctflow.bench.pipeline;

import io.cctflow.agent.batch.MethodId;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Builds the SampleBatch one simulated instance sends per flush interval: {@code busyThreads}
 * threads sampled every {@code periodMillis} for {@code flushMillis}, each sample a stack drawn from
 * the corpus, identical stacks summed, with a method dictionary of just the methods used (as the
 * agent builds it).
 *
 * <p>Not thread-safe: one instance per generating thread (scratch arrays are reused).
 */
public final class FleetBatches {
    public static final String SERVICE = "bench-fleet";
    public static final String VERSION = "maven-build";

    private final StackCorpus corpus;
    private final Random random;
    private final int samplesPerBatch;
    private final int periodMillis;
    private final long[] stackCounts;
    private final int[] touchedStacks;
    private final int[] localMethod;
    private final int[] methodStamp;
    private int stamp;

    public FleetBatches(StackCorpus corpus, int busyThreads, int periodMillis, long flushMillis, Random random) {
        this.corpus = corpus;
        this.random = random;
        this.periodMillis = periodMillis;
        this.samplesPerBatch = Math.toIntExact(busyThreads * (flushMillis / periodMillis));
        this.stackCounts = new long[corpus.stackCount()];
        this.touchedStacks = new int[corpus.stackCount()];
        this.localMethod = new int[corpus.methodCount()];
        this.methodStamp = new int[corpus.methodCount()];
    }

    /** Samples in every batch this builds. */
    public int samplesPerBatch() {
        return samplesPerBatch;
    }

    /** Sampling period of every batch, milliseconds. */
    public int periodMillis() {
        return periodMillis;
    }

    /** The instance info of simulated instance {@code index}. */
    public static InstanceInfo instance(String prefix, int index, long startTimeMillis) {
        return InstanceInfo.newBuilder().setService(SERVICE).setVersion(VERSION)
                .setInstanceId(prefix + "-" + index).setHost("bench").setPid(index)
                .setStartTimeMillis(startTimeMillis).setLabels(Map.of()).build();
    }

    /** One batch of {@link #samplesPerBatch()} samples covering [windowEnd - flush, windowEnd). */
    public SampleBatch next(InstanceInfo instance, long sequence, long windowStartMillis, long windowEndMillis) {
        int distinct = 0;
        for (int i = 0; i < samplesPerBatch; i++) {
            int s = corpus.draw(random);
            if (stackCounts[s]++ == 0) {
                touchedStacks[distinct++] = s;
            }
        }
        stamp++;
        List<MethodRef> methods = new ArrayList<>();
        List<Stack> stacks = new ArrayList<>(distinct);
        for (int t = 0; t < distinct; t++) {
            int s = touchedStacks[t];
            int[] global = corpus.frames(s);
            Integer[] frames = new Integer[global.length];
            for (int i = 0; i < global.length; i++) {
                int m = global[i];
                if (methodStamp[m] != stamp) {
                    methodStamp[m] = stamp;
                    localMethod[m] = methods.size();
                    MethodId id = corpus.method(m);
                    methods.add(new MethodRef(id.className(), id.methodName(), id.descriptor()));
                }
                frames[i] = localMethod[m];
            }
            Integer[] lines = Arrays.stream(corpus.lines(s)).boxed().toArray(Integer[]::new);
            stacks.add(new Stack(Arrays.asList(frames), Arrays.asList(lines), corpus.thread(s), false, stackCounts[s]));
            stackCounts[s] = 0;
        }
        return SampleBatch.newBuilder().setInstance(instance).setWindowStartMillis(windowStartMillis)
                .setWindowEndMillis(windowEndMillis).setSequence(sequence).setSamplingPeriodMillis(periodMillis)
                .setMethods(methods).setStacks(stacks).setStats(null).build();
    }
}
