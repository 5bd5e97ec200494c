package io.cctflow.agent.manifest;

import java.util.concurrent.atomic.AtomicLong;

import io.cctflow.schema.ManifestStats;

/**
 * The fingerprinting's own cumulative counters, published with every manifest as
 * {@link ManifestStats} (see the schema for each definition).
 *
 * <p>Thread safety: all methods may be called from any thread (class-loading threads, the
 * fingerprinting thread).
 */
final class ManifestCounters {
    private final AtomicLong classesSeen = new AtomicLong();
    private final AtomicLong classesPublished = new AtomicLong();
    private final AtomicLong classesDropped = new AtomicLong();
    private final AtomicLong classesUnreadable = new AtomicLong();
    private final AtomicLong classBytes = new AtomicLong();
    private final AtomicLong fingerprintNanos = new AtomicLong();

    void classSeen() {
        classesSeen.incrementAndGet();
    }

    void classDropped() {
        classesDropped.incrementAndGet();
    }

    void classUnreadable() {
        classesUnreadable.incrementAndGet();
    }

    void classFingerprinted(long bytes, long nanos) {
        classBytes.addAndGet(bytes);
        fingerprintNanos.addAndGet(nanos);
    }

    void classesPublished(long n) {
        classesPublished.addAndGet(n);
    }

    /** The current values; {@code manifestsDropped} comes from the manifest sender's counters. */
    ManifestStats snapshot(long manifestsDropped) {
        return ManifestStats.newBuilder()
                .setClassesSeen(classesSeen.get())
                .setClassesPublished(classesPublished.get())
                .setClassesDropped(classesDropped.get())
                .setClassesUnreadable(classesUnreadable.get())
                .setClassBytes(classBytes.get())
                .setFingerprintNanos(fingerprintNanos.get())
                .setManifestsDropped(manifestsDropped)
                .build();
    }
}
