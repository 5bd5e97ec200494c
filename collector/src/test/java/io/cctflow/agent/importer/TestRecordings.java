package io.cctflow.agent.importer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.cctflow.agent.sampling.JfrSampler;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/** Real JFR recordings made in the test JVM, and helpers to damage them. */
final class TestRecordings {
    /** Name of the busy thread; its normalised form is {@code import-worker-#}. */
    static final String WORKER = "import-worker-7";

    private static volatile double sink;

    private TestRecordings() {
    }

    /**
     * Records {@code jdk.ExecutionSample} every 10 ms while a thread named {@link #WORKER} spins,
     * until the recording holds at least {@code minSamples} samples of it (at most 60 s), and
     * dumps it to {@code file}.
     */
    static Path record(Path file, int minSamples) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        // a lambda on purpose: its hidden class (named with an address) is on every worker stack
        Thread worker = new Thread(() -> spin(stop), WORKER);
        worker.setDaemon(true);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        try (Recording recording = new Recording()) {
            recording.enable(JfrSampler.EXECUTION_SAMPLE).withPeriod(Duration.ofMillis(10));
            recording.start();
            worker.start();
            while (true) {
                recording.dump(file);
                if (workerSamples(file) >= minSamples) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("fewer than " + minSamples + " samples of " + WORKER
                            + " within 60 s");
                }
                Thread.onSpinWait();
            }
            recording.stop();
            recording.dump(file);
        } finally {
            stop.set(true);
            worker.join(10_000);
        }
        return file;
    }

    /** The execution samples with a stack in {@code file}, read directly with RecordingFile. */
    static List<RecordedEvent> executionSamples(Path file) throws IOException {
        List<RecordedEvent> events = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals(JfrSampler.EXECUTION_SAMPLE)
                    && e.getStackTrace() != null && !e.getStackTrace().getFrames().isEmpty()) {
                events.add(e);
            }
        }
        return events;
    }

    private static long workerSamples(Path file) throws IOException {
        return executionSamples(file).stream()
                .filter(e -> e.getThread("sampledThread") != null
                        && WORKER.equals(e.getThread("sampledThread").getJavaName()))
                .count();
    }

    /** Writes the first {@code length} bytes of {@code from} to {@code to}. */
    static Path truncate(Path from, Path to, long length) throws IOException {
        byte[] bytes = Files.readAllBytes(from);
        Files.write(to, Arrays.copyOf(bytes, (int) length));
        return to;
    }

    /**
     * Writes the first {@code length} bytes of {@code from} to {@code to} with the first chunk's
     * size set to 0: a recording caught while JFR is still writing it.
     */
    static Path unfinished(Path from, Path to, long length) throws IOException {
        byte[] bytes = Arrays.copyOf(Files.readAllBytes(from), (int) length);
        java.nio.ByteBuffer.wrap(bytes).putLong(8, 0); // the chunk size field of the header
        Files.write(to, bytes);
        return to;
    }

    /** Copies {@code from} to {@code to} with {@code n} bytes from {@code offset} inverted. */
    static Path flip(Path from, Path to, long offset, int n) throws IOException {
        byte[] bytes = Files.readAllBytes(from);
        for (int i = 0; i < n; i++) {
            bytes[(int) offset + i] ^= (byte) 0xFF;
        }
        Files.write(to, bytes);
        return to;
    }

    /** Writes {@code first} then {@code second}: a valid recording of their chunks. */
    static Path concat(Path first, Path second, Path to) throws IOException {
        byte[] a = Files.readAllBytes(first);
        byte[] b = Files.readAllBytes(second);
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        Files.write(to, all);
        return to;
    }

    private static void spin(AtomicBoolean stop) {
        double s = 0;
        while (!stop.get()) {
            for (int i = 1; i < 10_000; i++) {
                s += Math.sqrt(i);
            }
        }
        sink = s;
    }
}
