package io.cctflow.bench.pipeline;

import io.cctflow.core.ExecutionId;
import io.cctflow.schema.InstanceInfo;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A simulated fleet of {@code instances} agents, each sending one batch per flush interval, their
 * sends spread evenly over the interval (as the agent's jittered first flush spreads a real fleet).
 * Batch {@code b} goes out at {@code start + b * flush / instances}, for instance {@code b mod
 * instances}; event time is the wall clock at the send, so the job's watermark advances as in
 * production. Every {@code probeEveryBatches}-th batch is handed to the {@link LatencyProbes}.
 *
 * <p>One generating thread; {@link #stop} and the counters may be used from any thread.
 */
public final class FleetLoad {
    /** Per-instance state that lives across load steps: the same instances keep their sequences. */
    public static final class Fleet {
        private final InstanceInfo[] instances;
        private final String[] keys;
        private final long[] sequences;

        public Fleet(int maxInstances, long startTimeMillis) {
            instances = new InstanceInfo[maxInstances];
            keys = new String[maxInstances];
            sequences = new long[maxInstances];
            for (int i = 0; i < maxInstances; i++) {
                instances[i] = FleetBatches.instance("fleet", i, startTimeMillis);
                keys[i] = new ExecutionId(instances[i].getService(), instances[i].getVersion(),
                        instances[i].getInstanceId()).key();
            }
        }

        public int size() {
            return instances.length;
        }
    }

    /** The generator's thread; also its producer's {@code client.id}, so its network thread is named after it. */
    static final String THREAD_NAME = "fleet-generator";

    private final BatchTarget target;
    private final Fleet fleet;
    private final EncodedFleetBatches batches;
    private final int instances;
    private final long flushMillis;
    private final LatencyProbes probes;
    private final int probeEveryBatches;
    private final AtomicLong sentBatches = new AtomicLong();
    private final AtomicLong ackedBatches = new AtomicLong();
    private final AtomicLong behindSends = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopped;
    private final Thread thread;

    public FleetLoad(BatchTarget target, Fleet fleet, EncodedFleetBatches batches, int instances, long flushMillis,
            LatencyProbes probes, int probeEveryBatches) {
        if (instances < 1 || instances > fleet.size()) {
            throw new IllegalArgumentException("instances must be 1.." + fleet.size() + ", was " + instances);
        }
        this.target = target;
        this.fleet = fleet;
        this.batches = batches;
        this.instances = instances;
        this.flushMillis = flushMillis;
        this.probes = probes;
        this.probeEveryBatches = probeEveryBatches;
        this.thread = new Thread(this::generate, THREAD_NAME);
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Stops generating and waits for the generating thread (not for outstanding acks). */
    public void stop() throws InterruptedException {
        stopped = true;
        thread.join(TimeUnit.SECONDS.toMillis(30));
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("the fleet generator failed: " + t, t);
        }
    }

    /** Batches the broker acknowledged so far. */
    public long ackedBatches() {
        return ackedBatches.get();
    }

    /** Batches that went out more than one flush interval after their due time (generator too slow). */
    public long behindSends() {
        return behindSends.get();
    }

    public int samplesPerBatch() {
        return batches.samplesPerBatch();
    }

    /** Offered load in samples per second. */
    public double offeredSamplesPerSecond() {
        return instances * (double) batches.samplesPerBatch() * 1000.0 / flushMillis;
    }

    private void generate() {
        long startNanos = System.nanoTime();
        long intervalNanos = TimeUnit.MILLISECONDS.toNanos(flushMillis);
        try {
            for (long b = 0; !stopped; b++) {
                long due = startNanos + b * intervalNanos / instances;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                    if (stopped) {
                        return;
                    }
                } else if (-wait > intervalNanos) {
                    behindSends.incrementAndGet();
                }
                send((int) (b % instances));
            }
        } catch (Throwable t) {
            failure.set(t);
        }
    }

    private void send(int i) {
        long end = System.currentTimeMillis();
        InstanceInfo instance = fleet.instances[i];
        byte[] batch = batches.encode(instance, fleet.sequences[i]++, end - flushMillis, end);
        String key = fleet.keys[i];
        long start = end - flushMillis;
        LatencyProbes.Probe probe = sentBatches.incrementAndGet() % probeEveryBatches == 0
                ? probes.expect(key, start, batches.samplesPerBatch()) : null;
        if (probe == null) {
            probes.count(key, start, batches.samplesPerBatch());
        }
        target.sendSamples(key, batch).whenComplete((ok, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
                return;
            }
            ackedBatches.incrementAndGet();
            if (probe != null) {
                probe.acked(System.nanoTime());
            }
        });
    }
}
