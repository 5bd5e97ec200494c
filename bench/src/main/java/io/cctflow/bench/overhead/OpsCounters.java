package io.cctflow.bench.overhead;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The workload's operation counters in a memory-mapped file that the child writes and the parent
 * reads: the parent reads them while the child is frozen ({@code SIGSTOP}), so a slice counts every
 * operation the child completed while it was thawed, with no thread of the child taking part in
 * the measurement. One counter per worker thread, {@value #STRIDE} bytes apart (no shared cache
 * line). Each counter has one writer (its worker); reads are opaque, writes release.
 */
final class OpsCounters {
    private static final int STRIDE = 128;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final MappedByteBuffer buffer;
    private final int threads;

    private OpsCounters(MappedByteBuffer buffer, int threads) {
        this.buffer = buffer;
        this.threads = threads;
    }

    /** Creates (or truncates) {@code file} with zeroed counters for {@code threads} workers, writable. */
    static OpsCounters create(Path file, int threads) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return new OpsCounters(ch.map(FileChannel.MapMode.READ_WRITE, 0, (long) threads * STRIDE), threads);
        }
    }

    /** Maps an existing counter file of {@code threads} workers for reading. */
    static OpsCounters open(Path file, int threads) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            if (ch.size() < (long) threads * STRIDE) {
                throw new IOException(file + " holds " + ch.size() + " bytes, fewer than " + threads + " counters");
            }
            return new OpsCounters(ch.map(FileChannel.MapMode.READ_ONLY, 0, (long) threads * STRIDE), threads);
        }
    }

    /** Sets worker {@code thread}'s count; only that worker may call it. */
    void set(int thread, long count) {
        LONGS.setRelease(buffer, thread * STRIDE, count);
    }

    /** The sum of all workers' counts. */
    long sum() {
        long total = 0;
        for (int t = 0; t < threads; t++) {
            total += (long) LONGS.getOpaque(buffer, t * STRIDE);
        }
        return total;
    }
}
