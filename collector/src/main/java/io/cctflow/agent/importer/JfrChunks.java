package io.cctflow.agent.importer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Walks the chunk headers of a {@code .jfr} file and checks that they describe the whole file,
 * so a truncated or corrupt file is reported with the byte offset of the bad chunk before any
 * of it is read. A recording file is a sequence of self-contained chunks; each starts with a
 * 68-byte big-endian header: magic {@code FLR\0}, major and minor version (2 bytes each), chunk
 * size, constant-pool offset, metadata offset (8 bytes each, offsets relative to the chunk),
 * start time in epoch nanoseconds, duration, start ticks, ticks per second (8 bytes each) and
 * feature flags (4 bytes). Stateless and thread-safe.
 */
public final class JfrChunks {
    /** Size of a chunk header in bytes. */
    public static final int HEADER_SIZE = 68;
    private static final int MAGIC = 0x464c5200; // "FLR\0"
    private static final int SIZE_AT = 8;
    private static final int CONSTANT_POOL_AT = 16;
    private static final int METADATA_AT = 24;
    private static final int START_NANOS_AT = 32;

    /** One chunk: where it is in the file and when it starts. */
    public record Chunk(long offset, long size, long startNanos) {
    }

    private JfrChunks() {
    }

    /** Whether the file starts with the JFR magic bytes (a cheap sniff for undeclared files). */
    public static boolean looksLikeJfr(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(4);
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // fill
            }
            return !b.hasRemaining() && b.getInt(0) == MAGIC;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The chunks of {@code file}, in order.
     *
     * @throws CorruptFileException naming the offset of the first chunk that is cut short, has
     *     bad magic bytes or an impossible size or offset
     * @throws IOException when the file cannot be read at all
     */
    public static List<Chunk> scan(Path file) throws IOException, CorruptFileException {
        List<Chunk> chunks = new ArrayList<>();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long length = ch.size();
            ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE); // big-endian by default
            long at = 0;
            while (at < length) {
                if (length - at < HEADER_SIZE) {
                    throw corrupt(file, at, chunks, "only " + (length - at) + " bytes left, a chunk"
                            + " header needs " + HEADER_SIZE + " (truncated file?)");
                }
                header.clear();
                while (header.hasRemaining()) {
                    if (ch.read(header, at + header.position()) < 0) {
                        throw corrupt(file, at, chunks, "unexpected end of file in a chunk header");
                    }
                }
                if (header.getInt(0) != MAGIC) {
                    throw corrupt(file, at, chunks, "no chunk starts here (magic bytes are not"
                            + " FLR\\0)" + (at == 0 ? "; not a JFR recording?" : ""));
                }
                int major = header.getShort(4);
                if (major != 1 && major != 2) {
                    throw corrupt(file, at + 4, chunks, "unsupported JFR version " + major + "."
                            + header.getShort(6));
                }
                long size = header.getLong(SIZE_AT);
                if (size == 0) {
                    throw corrupt(file, at + SIZE_AT, chunks, "chunk size is 0: the chunk was never"
                            + " finished (still being written, or the JVM died)");
                }
                if (size < HEADER_SIZE || size > length - at) {
                    throw corrupt(file, at + SIZE_AT, chunks, "chunk declares " + size
                            + " bytes but " + (length - at) + " remain in the file"
                            + (size > length - at ? " (truncated file?)" : ""));
                }
                checkOffset(file, at, CONSTANT_POOL_AT, header, size, chunks, "constant pool");
                checkOffset(file, at, METADATA_AT, header, size, chunks, "metadata");
                chunks.add(new Chunk(at, size, header.getLong(START_NANOS_AT)));
                at += size;
            }
        }
        if (chunks.isEmpty()) {
            throw new CorruptFileException(file, 0, "the file is empty", null);
        }
        return chunks;
    }

    private static void checkOffset(Path file, long chunkAt, int field, ByteBuffer header,
            long size, List<Chunk> before, String what) throws CorruptFileException {
        long offset = header.getLong(field);
        if (offset < HEADER_SIZE || offset >= size) {
            throw corrupt(file, chunkAt + field, before, what + " offset " + offset
                    + " lies outside the chunk of " + size + " bytes at byte offset " + chunkAt);
        }
    }

    private static CorruptFileException corrupt(Path file, long offset, List<Chunk> before,
            String reason) {
        return new CorruptFileException(file, offset, "chunk " + (before.size() + 1) + ": " + reason,
                null);
    }
}
