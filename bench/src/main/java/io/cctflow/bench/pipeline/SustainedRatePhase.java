package io.cctflow.bench.pipeline;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Finds the fleet size this machine sustains: steps of {@link FleetLoad} with a warm-up, then a
 * steady phase during which the job's consumer lag is read every two seconds. A step is sustained
 * ({@link #verdict}) when neither the lag's least-squares trend over the steady phase nor the lag
 * from its first to its last reading grows by one checkpoint interval of batches (the committed
 * offsets move only at checkpoints, so the lag saw-tooths by that much anyway), and the generator
 * kept its schedule. The net rule matters after a cold start: a job still compiling in the first
 * seconds lets the lag jump, then grow slowly, which the trend alone averages away. From the first
 * size it doubles while sustained (up to the maximum), then tries
 * the midpoint between the last sustained and the first unsustained size once; from an unsustained
 * first size it halves. Between steps the backlog is drained (bounded) so each step starts even.
 * Batch-to-queryable latency is probed during every steady phase.
 */
public final class SustainedRatePhase implements Phase {
    private final StackCorpus corpus;
    private final PipelineBenchOptions options;
    private final List<String> summary = new ArrayList<>();
    private final List<Long> allLatencies = new ArrayList<>();

    public SustainedRatePhase(StackCorpus corpus, PipelineBenchOptions options) {
        this.corpus = corpus;
        this.options = options;
    }

    @Override
    public String name() {
        return "sustained rate";
    }

    @Override
    public void run(EmbeddedPipeline pipeline, PrintStream out) throws Exception {
        FleetLoad.Fleet fleet = new FleetLoad.Fleet(options.maxInstances(), System.currentTimeMillis());
        Random random = new Random(options.seed());
        EncodedFleetBatches batches = new EncodedFleetBatches(new FleetBatches(corpus, options.busyThreads(),
                options.periodMillis(), options.flushMillis(), random), options.batchPool(), random);
        int lastGood = 0;
        int firstBad = Integer.MAX_VALUE;
        int n = options.startInstances();
        for (int step = 0; step < options.maxSteps() && n > 0; step++) {
            boolean sustained = step(pipeline, fleet, batches, n, out);
            if (sustained) {
                lastGood = Math.max(lastGood, n);
            } else {
                firstBad = Math.min(firstBad, n);
            }
            int next = nextSize(lastGood, firstBad);
            if (next == n || next <= 0) {
                break;
            }
            n = next;
        }
        out.println();
        out.println("== sustained rate: summary (2-core machine shared with other builds) ==");
        summary.forEach(out::println);
        out.printf("largest sustained fleet: %d instances = %,.0f samples/s (goal 1,000 instances = 100,000 samples/s)%n",
                lastGood, lastGood * (double) batches.samplesPerBatch() * 1000.0 / options.flushMillis());
        out.println("batch-to-queryable latency, all steps' steady phases: "
                + new LatencyProbes.Result(allLatencies, 0, 0).summary() + " (goals: median < 15 s; issue 31: p99 < 15 s)");
    }

    private int nextSize(int lastGood, int firstBad) {
        if (firstBad == Integer.MAX_VALUE) {
            return lastGood >= options.maxInstances() ? lastGood : Math.min(options.maxInstances(), lastGood * 2);
        }
        if (lastGood == 0) {
            return firstBad / 2 < 1 || firstBad / 2 == firstBad ? 0 : firstBad / 2;
        }
        int mid = (lastGood + firstBad) / 2;
        return firstBad - lastGood <= Math.max(1, lastGood / 8) ? lastGood : mid;
    }

    private boolean step(EmbeddedPipeline pipeline, FleetLoad.Fleet fleet, EncodedFleetBatches batches, int n, PrintStream out)
            throws Exception {
        LatencyProbes probes = new LatencyProbes(pipeline.config().window().toMillis(), TimeUnit.MINUTES.toMillis(2));
        // about one probed batch per second whatever the fleet size
        int probeEvery = Math.max(1, (int) (n * 1000L / options.flushMillis()));
        FleetLoad load = new FleetLoad(pipeline, fleet, batches, n, options.flushMillis(), probes, probeEvery);
        out.printf("%n-- step: %d instances x %d threads at %d ms = %,.0f samples/s offered (%d samples per batch)%n",
                n, options.busyThreads(), options.periodMillis(), load.offeredSamplesPerSecond(), load.samplesPerBatch());
        load.start();
        long warmupEnd = System.nanoTime() + options.warmup().toNanos();
        while (System.nanoTime() < warmupEnd) {
            probes.poll(pipeline.reader());
            Thread.sleep(200);
        }
        List<ConsumerLag.Snapshot> lags = new ArrayList<>();
        MachineLoad machineStart = MachineLoad.now();
        CpuShares cpuStart = CpuShares.now();
        long ackedStart = load.ackedBatches();
        long measureStart = System.nanoTime();
        long measureEnd = measureStart + options.measure().toNanos();
        long nextLag = measureStart;
        while (System.nanoTime() < measureEnd) {
            if (System.nanoTime() >= nextLag) {
                lags.add(pipeline.lag().read());
                nextLag += TimeUnit.SECONDS.toNanos(2);
            }
            probes.poll(pipeline.reader());
            Thread.sleep(200);
        }
        lags.add(pipeline.lag().read());
        long acked = load.ackedBatches() - ackedStart;
        double seconds = (System.nanoTime() - measureStart) / 1e9;
        String machine = MachineLoad.now().since(machineStart);
        CpuShares cpuEnd = CpuShares.now();
        load.stop();

        int spb = load.samplesPerBatch();
        ConsumerLag.Snapshot first = lags.get(0);
        ConsumerLag.Snapshot last = lags.get(lags.size() - 1);
        double produced = acked * spb / seconds;
        double committed = (last.committedOffsets() - first.committedOffsets()) * (double) spb
                / ((last.nanoTime() - first.nanoTime()) / 1e9);
        double toleranceBatches = n * (double) pipeline.config().checkpointInterval().toMillis() / options.flushMillis();
        Verdict verdict = verdict(lags, toleranceBatches, load.behindSends());
        boolean sustained = verdict.sustained();
        // the steady phase's figure counts the batches acknowledged in it; those of the warm-up (after
        // a cold start, the backlog the job built while compiling) are printed apart, whenever they became readable
        LatencyProbes.Result latency = probes.drainAckedSince(measureStart);
        LatencyProbes.Result warmupLatency = probes.drainAckedBefore(measureStart);
        allLatencies.addAll(latency.latenciesMillis());
        out.printf("   produced (acked) %,.0f samples/s; committed by the job %,.0f samples/s over %.0f s%n",
                produced, committed, seconds);
        out.printf("   consumer lag at start %,d batches (%,d samples), at end %,d batches (%,d samples): %+,d;"
                        + " trend %+.2f batches/s = %+,.0f over the phase (tolerance for both: one checkpoint interval"
                        + " = %,.0f batches)%n",
                first.lag(), first.lag() * spb, last.lag(), last.lag() * spb, verdict.netGrowth(),
                verdict.trendPerSecond(), verdict.trendGrowth(), toleranceBatches);
        if (load.behindSends() > 0) {
            out.printf("   generator fell behind schedule %,d times (it shares the 2 cores with the pipeline)%n",
                    load.behindSends());
        }
        out.println("   batch-to-queryable latency, batches acknowledged in the steady phase: " + latency.summary());
        out.println("   batch-to-queryable latency, batches acknowledged in the warm-up (" + options.warmup().toSeconds()
                + " s): " + warmupLatency.summary());
        out.println("   machine: " + machine);
        double committedSamples = (last.committedOffsets() - first.committedOffsets()) * (double) spb;
        if (committedSamples > 0) {
            out.println("   " + cpuEnd.perSampleSince(cpuStart, committedSamples));
        }
        out.println("   => " + (sustained ? "SUSTAINED" : "NOT sustained"));
        summary.add(String.format("%5d instances  offered %,9.0f  produced %,9.0f  committed %,9.0f samples/s  "
                        + "lag %,6d -> %,6d batches  latency median %5.1f s p99 %5.1f s (warm-up's max %5.1f s)  %s",
                n, load.offeredSamplesPerSecond(), produced, committed, first.lag(), last.lag(),
                latency.percentile(50) / 1000.0, latency.percentile(99) / 1000.0, warmupLatency.percentile(100) / 1000.0,
                sustained ? "sustained" : "NOT sustained"));
        drain(pipeline, out);
        return sustained;
    }

    /**
     * What the lag readings of a steady phase say: its least-squares trend (per second, and over the
     * phase), its net growth from the first reading to the last, and whether the step was sustained:
     * both under {@code toleranceBatches} and the generator never behind its schedule.
     */
    record Verdict(double trendPerSecond, double trendGrowth, long netGrowth, boolean sustained) {
    }

    static Verdict verdict(List<ConsumerLag.Snapshot> lags, double toleranceBatches, long behindSends) {
        ConsumerLag.Snapshot first = lags.get(0);
        ConsumerLag.Snapshot last = lags.get(lags.size() - 1);
        double slope = slopePerSecond(lags);
        double trendGrowth = slope * (last.nanoTime() - first.nanoTime()) / 1e9;
        long net = last.lag() - first.lag();
        return new Verdict(slope, trendGrowth, net, trendGrowth < toleranceBatches && net < toleranceBatches
                && behindSends == 0);
    }

    /** Least-squares slope of lag over time, batches per second. */
    static double slopePerSecond(List<ConsumerLag.Snapshot> lags) {
        if (lags.size() < 2) {
            return 0;
        }
        long t0 = lags.get(0).nanoTime();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (ConsumerLag.Snapshot s : lags) {
            double x = (s.nanoTime() - t0) / 1e9;
            double y = s.lag();
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        int k = lags.size();
        double denominator = k * sxx - sx * sx;
        return denominator == 0 ? 0 : (k * sxy - sx * sy) / denominator;
    }

    /** Waits, bounded, until the job has committed everything produced so far. */
    static void drain(EmbeddedPipeline pipeline, PrintStream out) throws InterruptedException {
        long target = pipeline.lag().read().endOffsets();
        long start = System.nanoTime();
        Duration bound = Duration.ofSeconds(60);
        ConsumerLag.Snapshot s = pipeline.lag().read();
        while (s.committedOffsets() < target && System.nanoTime() - start < bound.toNanos()) {
            Thread.sleep(500);
            s = pipeline.lag().read();
        }
        out.printf("   drained: lag %,d batches after %.1f s%s%n", Math.max(0, target - s.committedOffsets()),
                (System.nanoTime() - start) / 1e9, s.committedOffsets() < target ? " (bound of 60 s reached)" : "");
    }
}
