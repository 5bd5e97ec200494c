package io.cctflow.bench.rollup;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * This JVM's heap while a piece of work runs: the most heap left after any garbage collection
 * (what was live then, and so a lower bound of the work's own peak: an upper one when collections
 * are frequent, as with a small {@code -Xmx}), the peak of the heap pools (garbage included), and
 * the collections counted. Start with {@link #start}, read with {@link #stop}.
 *
 * <p>Thread-safe: collections are reported on the JVM's notification thread.
 */
final class HeapWatch implements AutoCloseable {
    /** What one watch saw, in bytes; {@code baseline} is the heap after a full collection before. */
    record Heap(long baseline, long maxAfterGc, long peakUsed, int collections, long maxHeap) {
        String summary() {
            return String.format("heap after GC at most %.1f MiB (baseline %.1f MiB before, so +%.1f MiB), pools' peak"
                            + " %.1f MiB, %d collections, -Xmx %.0f MiB", mib(maxAfterGc), mib(baseline),
                    mib(Math.max(0, maxAfterGc - baseline)), mib(peakUsed), collections, mib(maxHeap));
        }

        static double mib(long bytes) {
            return bytes / 1048576.0;
        }
    }

    private final Set<String> heapPools = new HashSet<>();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final AtomicLong maxAfterGc = new AtomicLong();
    private final AtomicLong collections = new AtomicLong();
    private final NotificationListener listener = (n, handback) -> {
        if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        long used = 0;
        for (var e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                used += e.getValue().getUsed();
            }
        }
        maxAfterGc.accumulateAndGet(used, Math::max);
        collections.incrementAndGet();
    };
    private long baseline;

    HeapWatch() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
                emitters.add(emitter);
            }
        }
    }

    /** Collects garbage, takes the baseline and resets the counters and the pools' peaks. */
    void start() {
        System.gc();
        baseline = heapUsed();
        maxAfterGc.set(baseline);
        collections.set(0);
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    /** What the heap did since {@link #start}. */
    Heap stop() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                MemoryUsage u = pool.getPeakUsage();
                peak += u.getUsed();
            }
        }
        return new Heap(baseline, maxAfterGc.get(), peak, (int) collections.get(),
                Runtime.getRuntime().maxMemory());
    }

    private static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Override
    public void close() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(listener);
            } catch (javax.management.ListenerNotFoundException ignored) {
                // never added to this one
            }
        }
    }
}
