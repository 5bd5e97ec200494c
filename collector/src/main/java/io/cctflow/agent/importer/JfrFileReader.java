package io.cctflow.agent.importer;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import io.cctflow.agent.sampling.ExecutionSamples;
import io.cctflow.agent.sampling.JfrSampler;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads the {@code jdk.ExecutionSample} events of a {@code .jfr} file into an
 * {@link EventTimeBatcher}, through the same {@link ExecutionSamples} conversion the live agent
 * uses. The chunks are checked first ({@link JfrChunks}); a file with several chunks is read
 * one chunk at a time (each chunk is a valid recording on its own), so a chunk that JFR's parser
 * rejects is reported with its byte offset, and the chunks before it are still imported.
 *
 * <p>Not thread-safe: one reader per thread.
 */
public final class JfrFileReader {
    private final ExecutionSamples samples = new ExecutionSamples(false);
    private final Path tempDir;
    private long eventsWithoutStack;

    /** @param tempDir where single chunks of multi-chunk files are copied while read */
    public JfrFileReader(Path tempDir) {
        this.tempDir = tempDir;
    }

    /**
     * Reads the given chunks of {@code file} (from {@link JfrChunks#scan}) into {@code batcher}.
     *
     * @param progress called after every chunk with the samples recorded so far
     * @throws CorruptFileException when JFR cannot parse a chunk; the samples of earlier chunks
     *     (and of the bad chunk up to the failure) have been recorded
     * @throws IOException when the file cannot be read or a chunk not copied
     */
    public void read(Path file, List<JfrChunks.Chunk> chunks, EventTimeBatcher batcher,
            Runnable progress) throws IOException, CorruptFileException {
        boolean whole = chunks.size() == 1 && chunks.get(0).size() == Files.size(file);
        for (int i = 0; i < chunks.size(); i++) {
            JfrChunks.Chunk chunk = chunks.get(i);
            if (whole) {
                readChunk(file, file, chunk, i, chunks.size(), batcher);
            } else {
                Path copy = copy(file, chunk);
                try {
                    readChunk(file, copy, chunk, i, chunks.size(), batcher);
                } finally {
                    Files.deleteIfExists(copy);
                }
            }
            progress.run();
        }
    }

    /** Execution-sample events that had no stack trace (left out). */
    public long eventsWithoutStack() {
        return eventsWithoutStack;
    }

    private void readChunk(Path file, Path source, JfrChunks.Chunk chunk, int index, int count,
            EventTimeBatcher batcher) throws CorruptFileException {
        long before = batcher.samples();
        try (RecordingFile recording = new RecordingFile(source)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                if (!event.getEventType().getName().equals(JfrSampler.EXECUTION_SAMPLE)) {
                    continue;
                }
                batcher.at(event.getStartTime().toEpochMilli());
                if (samples.read(event, batcher) == ExecutionSamples.Outcome.NO_STACK) {
                    eventsWithoutStack++;
                }
            }
        } catch (IOException | RuntimeException | InternalError e) {
            // JFR's parser throws IOException for bad data, but also runtime exceptions and
            // InternalError for structures it cannot make sense of
            throw new CorruptFileException(file, chunk.offset(), "chunk " + (index + 1) + " of "
                    + count + " (bytes " + chunk.offset() + ".." + (chunk.offset() + chunk.size())
                    + ") cannot be parsed: " + describe(e) + "; " + (batcher.samples() - before)
                    + " samples of this chunk were read before the error", e);
        }
    }

    private Path copy(Path file, JfrChunks.Chunk chunk) throws IOException {
        Path copy = Files.createTempFile(tempDir, "cctflow-import-chunk-", ".jfr");
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
                FileChannel out = FileChannel.open(copy, StandardOpenOption.WRITE)) {
            long done = 0;
            while (done < chunk.size()) {
                long n = in.transferTo(chunk.offset() + done, chunk.size() - done, out);
                if (n <= 0) {
                    throw new IOException("could not copy chunk at byte offset " + chunk.offset()
                            + " of " + file);
                }
                done += n;
            }
        } catch (IOException e) {
            Files.deleteIfExists(copy);
            throw e;
        }
        return copy;
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
