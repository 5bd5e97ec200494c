package io.cctflow.agent.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Encoded batches of one execution as files in one directory, one file per batch, named so
 * that name order is queue order: {@code <run id>-<sequence>.batch}, both zero-padded.
 *
 * <p>Crash safety: a file is written as {@code <name>.tmp}, forced to disk and then renamed
 * atomically, so a file with the final name is always complete; leftover {@code .tmp} files of a
 * crash are deleted by {@link #list()}. Each file holds a magic number, the batch's sequence, the
 * length and a CRC-32 of the payload, so a damaged file is recognised on {@link #read} instead of
 * being sent.
 *
 * <p>Ownership: a live agent holds an OS lock on {@value #LOCK_FILE} in its directory, and
 * records in {@value #OWNER_FILE} which queue it is ({@link SpillOwner}), so a later run can find
 * the directories of dead predecessors and send or delete their batches ({@link OrphanedSpills}).
 *
 * <p>Thread safety: distinct files may be written, read and deleted concurrently; the lock and
 * the counts of removed partial files are guarded by {@code this}. Callers keep one writer per
 * file.
 */
final class SpillDirectory {
    static final String SUFFIX = ".batch";
    private static final String TMP_SUFFIX = ".tmp";
    private static final int MAGIC = 0x43435331; // "CCS1"
    private static final int HEADER = 4 + 8 + 4 + 4;

    /** The file whose lock a live agent holds for as long as it uses the directory. */
    static final String LOCK_FILE = "owner.lock";
    /** Which queue the directory belongs to: its kind and record key ({@link SpillOwner}). */
    static final String OWNER_FILE = "owner";

    private final Path dir;
    // guarded by this
    private FileChannel lockChannel;
    private FileLock lock;
    private int partialsRemoved;
    private long partialBytesRemoved;

    private SpillDirectory(Path dir) {
        this.dir = dir;
    }

    /** An existing spill directory (of another run), not created, not locked. */
    static SpillDirectory existing(Path dir) {
        return new SpillDirectory(dir);
    }

    /**
     * The spill directory of one execution under {@code root}: a readable, file-system safe
     * form of the key plus its hash, so distinct executions never share a directory. Creates it.
     *
     * @throws IOException if the directory cannot be created
     */
    static SpillDirectory forExecution(Path root, String executionKey) throws IOException {
        StringBuilder name = new StringBuilder();
        for (int i = 0; i < executionKey.length() && name.length() < 100; i++) {
            char c = executionKey.charAt(i);
            boolean safe = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '.' || c == '-';
            name.append(safe ? c : '_');
        }
        name.append('-').append(String.format("%08x", executionKey.hashCode()));
        Path dir = root.resolve(name.toString());
        Files.createDirectories(dir);
        return new SpillDirectory(dir);
    }

    Path path() {
        return dir;
    }

    /**
     * Takes the directory's lock ({@value #LOCK_FILE}): an OS file lock, held until {@link #unlock}
     * or the end of the process, so it tells exactly whether a live agent uses the directory (the
     * OS releases it when a process dies, even by {@code kill -9}).
     *
     * @return false if another process, or another queue of this JVM, holds it
     * @throws IOException if the lock file cannot be opened
     */
    synchronized boolean lock() throws IOException {
        if (lock != null) {
            return true;
        }
        FileChannel ch = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            FileLock l = ch.tryLock();
            if (l == null) {
                ch.close();
                return false;
            }
            lockChannel = ch;
            lock = l;
            return true;
        } catch (OverlappingFileLockException e) {
            ch.close();
            return false;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Gives the lock up (if held). */
    synchronized void unlock() {
        try {
            if (lockChannel != null) {
                lockChannel.close(); // releases the lock
            }
        } catch (IOException e) {
            // closing a lock file cannot lose data; the OS releases the lock at exit anyway
        } finally {
            lockChannel = null;
            lock = null;
        }
    }

    /**
     * Deletes the directory of a run whose batches are all sent (or dropped): its owner and lock
     * files, then the directory, then gives up the lock.
     *
     * @throws IOException if something is left in it or it cannot be deleted
     */
    synchronized void deleteAndUnlock() throws IOException {
        try {
            Files.deleteIfExists(dir.resolve(OWNER_FILE));
            Files.deleteIfExists(dir.resolve(LOCK_FILE));
            Files.deleteIfExists(dir);
        } finally {
            unlock();
        }
    }

    /** {@code .tmp} leftovers of interrupted writes that {@link #list} deleted so far. */
    synchronized int partialsRemoved() {
        return partialsRemoved;
    }

    /** Their bytes. */
    synchronized long partialBytesRemoved() {
        return partialBytesRemoved;
    }

    /** The file name of a batch: orders by run, then by sequence. */
    static String fileName(long runId, long sequence) {
        return String.format("%019d-%019d%s", runId, sequence, SUFFIX);
    }

    /** Writes a batch crash-safely and returns its file. */
    Path write(long runId, long sequence, byte[] payload) throws IOException {
        Path target = dir.resolve(fileName(runId, sequence));
        Path tmp = dir.resolve(target.getFileName() + TMP_SUFFIX);
        CRC32 crc = new CRC32();
        crc.update(payload);
        ByteBuffer header = ByteBuffer.allocate(HEADER)
                .putInt(MAGIC).putLong(sequence).putInt(payload.length).putInt((int) crc.getValue())
                .flip();
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer body = ByteBuffer.wrap(payload);
            while (header.hasRemaining() || body.hasRemaining()) {
                ch.write(new ByteBuffer[] {header, body});
            }
            ch.force(true);
        } catch (IOException e) {
            delete(tmp); // a full disk leaves no partial file behind; the caller counts the batch
            throw e;
        }
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
    }

    /**
     * Reads a batch back.
     *
     * @throws IOException if the file cannot be read or is damaged; the message says which and why
     */
    static byte[] read(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        if (all.length < HEADER) {
            throw new IOException("spill file " + file + " is damaged: " + all.length
                    + " bytes, shorter than its header");
        }
        ByteBuffer in = ByteBuffer.wrap(all);
        int magic = in.getInt();
        in.getLong(); // sequence: for people reading the file, the name carries it too
        int length = in.getInt();
        int expectedCrc = in.getInt();
        if (magic != MAGIC) {
            throw new IOException("spill file " + file + " is damaged: not a cctflow spill file");
        }
        if (length != in.remaining()) {
            throw new IOException("spill file " + file + " is damaged: header says " + length
                    + " bytes, file holds " + in.remaining());
        }
        byte[] payload = new byte[length];
        in.get(payload);
        CRC32 crc = new CRC32();
        crc.update(payload);
        if ((int) crc.getValue() != expectedCrc) {
            throw new IOException("spill file " + file + " is damaged: checksum mismatch");
        }
        return payload;
    }

    /**
     * The complete spill files, oldest first. Deletes leftovers of interrupted writes (a process
     * that died while writing) and counts them ({@link #partialsRemoved}).
     */
    List<Path> list() throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) {
                String name = p.getFileName().toString();
                if (name.endsWith(SUFFIX)) {
                    files.add(p);
                } else if (name.endsWith(SUFFIX + TMP_SUFFIX)) {
                    long size = payloadSize(p);
                    Files.deleteIfExists(p);
                    synchronized (this) {
                        partialsRemoved++;
                        partialBytesRemoved += size;
                    }
                }
            }
        }
        Collections.sort(files);
        return files;
    }

    /** The payload size of a spill file, for the bound; 0 if unknown. */
    static long payloadSize(Path file) {
        try {
            return Math.max(0, Files.size(file) - HEADER);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Deletes a file; false if that failed. */
    static boolean delete(Path file) {
        try {
            Files.deleteIfExists(file);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
