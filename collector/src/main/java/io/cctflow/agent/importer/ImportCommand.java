package io.cctflow.agent.importer;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.agent.transport.KafkaBatchSender;
import io.cctflow.agent.transport.SendQueue;
import io.cctflow.core.ExecutionId;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.SampleBatch;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * {@code java -jar cctflow-collector.jar import}: publishes {@code .jfr} recordings and
 * collapsed-stack files as {@link SampleBatch}es, one file at a time, each file as its own
 * execution (its instance is the file name unless {@code --instance} is given) with its own
 * producer, waiting for the broker's acknowledgement before the file counts as done. A file
 * that cannot be read or published, or that meets an unexpected error, is reported on
 * {@code stderr} and the next file is imported.
 *
 * <p>Thread safety: {@link #importAll} and {@link #watch} run on one thread; {@link #stop} may
 * be called from any thread (a shutdown hook).
 */
public final class ImportCommand {
    /** Exit code: everything was imported and acknowledged. */
    public static final int OK = 0;
    /** Exit code: some input could not be read or published. */
    public static final int FAILED = 1;
    /** Exit code: bad arguments. */
    public static final int USAGE = 2;

    static final String PREFIX = "cctflow import: ";
    private static final long PROGRESS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final String LABEL_SOURCE = "imported.from";
    private static final String HOST = "imported";
    /** Batches queued before the import waits for the broker: bounds its memory. */
    private static final int MAX_QUEUED_BATCHES = 64;
    /** Memory bound of the send queue; the wait above keeps the import well below it. */
    private static final long QUEUE_BYTES = 256L << 20;

    /** Kind of an input file. */
    enum Kind { JFR, COLLAPSED }

    private final ImportOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, long[]> sequences = new HashMap<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Path tempDir = Path.of(System.getProperty("java.io.tmpdir"));
    private final ImportListener listener;

    private int filesDone;
    private int filesFailed;
    private long samples;
    private long batches;
    private long lastProgressNanos = System.nanoTime();

    public ImportCommand(ImportOptions options, PrintStream out, PrintStream err) {
        this(options, out, err, ImportListener.NONE);
    }

    ImportCommand(ImportOptions options, PrintStream out, PrintStream err, ImportListener listener) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.listener = listener;
    }

    /** Runs {@code import} with the given arguments; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        ImportOptions options;
        try {
            options = ImportOptions.parse(args);
        } catch (ImportOptions.UsageException e) {
            err.println(PREFIX + e.getMessage());
            return USAGE;
        }
        if (options.help) {
            out.println(ImportOptions.usage());
            return OK;
        }
        ImportCommand command = new ImportCommand(options, out, err);
        return options.watch ? watchUntilShutdown(command, options.timeoutMillis) : command.importAll();
    }

    /**
     * Runs {@link #watch} with a shutdown hook (Ctrl-C, SIGTERM) that stops it and lets it
     * finish the current file and print its summary, waiting at most {@code timeoutMillis}. The
     * hook waits for the summary, not for this thread: the caller goes on to
     * {@code System.exit}, which blocks for good once the JVM is shutting down, so joining it
     * would always take the whole timeout.
     */
    private static int watchUntilShutdown(ImportCommand command, long timeoutMillis) {
        CountDownLatch summarised = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            command.stop();
            try {
                summarised.await(timeoutMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "cctflow-import-stop"));
        try {
            return command.watch();
        } finally {
            summarised.countDown();
        }
    }

    /** Imports every given file and the matching files of every given directory once. */
    public int importAll() {
        List<Path> files = new ArrayList<>();
        for (Path p : options.paths) {
            if (Files.isDirectory(p)) {
                try {
                    files.addAll(listInputs(p));
                } catch (IOException e) {
                    fail("directory " + p + ": cannot be listed: " + e);
                }
            } else {
                files.add(p);
            }
        }
        for (int i = 0; i < files.size(); i++) {
            importFile(files.get(i), i + 1, files.size());
        }
        return summary();
    }

    /**
     * Watches the given directories until {@link #stop}, importing each file when
     * {@link WatchedFiles} says it is due: once its size and modification time have stayed the
     * same for one poll interval (a recording being written or copied is left alone until it is
     * complete); a file imported only once; a file that failed again once it has changed, unless
     * some of it was published. The summary counts each file once, by its last try.
     */
    public int watch() {
        WatchedFiles watched = new WatchedFiles();
        int tries = 0;
        err.println(PREFIX + "watching " + options.paths + " every " + options.pollMillis
                + " ms; Ctrl-C stops");
        while (stopped.getCount() > 0) {
            for (Path dir : options.paths) {
                List<Path> inputs;
                try {
                    inputs = listInputs(dir);
                } catch (IOException e) {
                    err.println(PREFIX + "directory " + dir + ": cannot be listed: " + e);
                    continue;
                }
                for (Path file : inputs) {
                    if (stopped.getCount() == 0) {
                        break;
                    }
                    WatchedFiles.State state = WatchedFiles.State.of(file);
                    if (watched.changedSinceImport(file, state)) {
                        err.println(PREFIX + "WARN " + file + ": changed after it was imported; what was written"
                                + " since is not imported (write files under a hidden name, .name, and rename"
                                + " them into place when complete)");
                    }
                    if (watched.due(file, state)) {
                        tries++;
                        importWatched(watched, file, state, tries);
                    }
                }
            }
            listener.looked();
            try {
                stopped.await(options.pollMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return summary();
    }

    private void importWatched(WatchedFiles watched, Path file, WatchedFiles.State state, int number) {
        FileResult result = importFile(file, number, 0);
        boolean failedBefore;
        if (result.ok()) {
            failedBefore = watched.imported(file, state);
        } else {
            failedBefore = watched.failed(file, state, result.nothingSent());
            err.println(PREFIX + file + (result.nothingSent()
                    ? ": will be tried again when it changes"
                    : ": not tried again: " + (result.batches - result.unsent) + " of its batches"
                            + " were sent, and importing it again would publish them twice"));
        }
        if (failedBefore) {
            filesFailed--; // a file counts once in the summary, by its last try
        }
    }

    /** Makes {@link #watch} return after the file it is importing. Any thread. */
    public void stop() {
        stopped.countDown();
    }

    /** The importable files of a directory, by name: *.jfr, *.collapsed, *.folded, *.txt. */
    static List<Path> listInputs(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) {
                String name = p.getFileName().toString();
                if (!name.startsWith(".") && Files.isRegularFile(p) && kindByName(name) != null) {
                    files.add(p);
                }
            }
        }
        files.sort(null);
        return files;
    }

    private static Kind kindByName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.endsWith(".jfr")) {
            return Kind.JFR;
        }
        if (n.endsWith(".collapsed") || n.endsWith(".folded") || n.endsWith(".txt")) {
            return Kind.COLLAPSED;
        }
        return null;
    }

    /** By name; a file named on the command line with another name is sniffed. */
    static Kind kindOf(Path file) {
        Kind byName = kindByName(file.getFileName().toString());
        if (byName != null) {
            return byName;
        }
        return JfrChunks.looksLikeJfr(file) ? Kind.JFR : Kind.COLLAPSED;
    }

    /** The default instance id of a file: its name without the extension. */
    static String instanceOf(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String base = dot > 0 ? name.substring(0, dot) : name;
        return base.replace('\u001f', '_');
    }

    private FileResult importFile(Path file, int number, int total) {
        String position = total > 0 ? "[" + number + "/" + total + "] " : "[" + number + "] ";
        Kind kind = kindOf(file);
        String instance = options.instance != null ? options.instance : instanceOf(file);
        ExecutionId execution = new ExecutionId(options.service, options.version, instance);
        long[] sequence = sequences.computeIfAbsent(execution.key(), k -> new long[1]);
        FileResult result = new FileResult();
        try {
            listener.reading(file);
            List<JfrChunks.Chunk> chunks = null;
            long startMillis;
            if (kind == Kind.JFR) {
                chunks = JfrChunks.scan(file);
                startMillis = chunks.get(0).startNanos() / 1_000_000;
            } else {
                startMillis = options.time != null ? options.time.toEpochMilli()
                        : Files.getLastModifiedTime(file).toMillis();
            }
            InstanceInfo info = instanceInfo(file, instance, startMillis);
            publish(file, kind, chunks, startMillis, info, execution, sequence, result);
        } catch (CorruptFileException e) {
            result.error = e.getMessage();
        } catch (IOException e) {
            result.error = "file " + file + ": cannot be read: " + e;
        } catch (RuntimeException e) {
            // a bug, not bad input: it must not cost the files after this one
            result.error = "file " + file + ": unexpected error, a bug in cctflow import (please"
                    + " report it with this line): " + describe(e);
        }
        samples += result.samples;
        batches += result.acknowledged;
        if (result.ok()) {
            filesDone++;
            err.println(PREFIX + position + file + ": " + result.samples + " samples in "
                    + result.batches + " batches, acknowledged (instance " + instance + ")"
                    + (result.samples == 0 ? "; WARN it holds no " + (kind == Kind.JFR
                            ? "jdk.ExecutionSample events" : "stacks") : ""));
        } else {
            filesFailed++;
            if (result.error != null) {
                err.println(PREFIX + "ERROR " + result.error);
            }
            err.println(PREFIX + position + file + ": FAILED: " + result.samples + " samples read, "
                    + result.acknowledged + " of " + result.batches + " batches acknowledged"
                    + (result.skippedLines > 0 ? ", " + result.skippedLines + " lines skipped" : "")
                    + (result.unsent > 0 ? ", " + result.unsent + " batches not sent after a"
                            + " delivery failure" : ""));
        }
        return result;
    }

    /** The exception and where it was thrown: enough to find the bug from one line. */
    private static String describe(RuntimeException e) {
        StackTraceElement[] trace = e.getStackTrace();
        return e + (trace.length > 0 ? " at " + trace[0] : "");
    }

    private void publish(Path file, Kind kind, List<JfrChunks.Chunk> chunks, long startMillis,
            InstanceInfo info, ExecutionId execution, long[] sequence, FileResult result)
            throws IOException, CorruptFileException {
        AgentCounters counters = new AgentCounters();
        SendQueue queue = SendQueue.inMemory(QUEUE_BYTES, counters, RateLimitedLog.perMinute(), System::nanoTime);
        KafkaBatchSender sender;
        try {
            sender = new KafkaBatchSender(new KafkaProducer<>(producerProperties()), options.topic,
                    execution.key(), queue, counters, new Random(), System::nanoTime, RateLimitedLog.perMinute());
        } catch (RuntimeException e) {
            result.error = "file " + file + ": cannot create a Kafka producer for "
                    + options.bootstrapServers + ": " + e;
            return;
        }
        sender.start();
        EventTimeBatcher batcher = new EventTimeBatcher(info, options.periodMillis,
                options.windowMillis, counters, () -> sequence[0]++, batch -> {
                    if (result.deliveryFailed) {
                        result.unsent++;
                        return;
                    }
                    sender.send(batch);
                    // back-pressure keeps a large import's memory bounded; a broker that takes
                    // nothing for the whole timeout fails the file instead of waiting per batch
                    if (queue.size() >= MAX_QUEUED_BATCHES && !drained(queue)) {
                        result.deliveryFailed = true;
                    }
                });
        try {
            if (kind == Kind.JFR) {
                JfrFileReader reader = new JfrFileReader(tempDir);
                try {
                    reader.read(file, chunks, batcher, () -> progress(file, batcher));
                } finally {
                    batcher.finish();
                    result.samples = batcher.samples();
                }
            } else {
                CollapsedFileReader reader = new CollapsedFileReader();
                try {
                    result.skippedLines = reader.read(file, startMillis, batcher,
                            line -> err.println(PREFIX + "ERROR " + line));
                } finally {
                    batcher.finish();
                    result.samples = batcher.samples();
                }
            }
        } finally {
            // waits for the acknowledgement of everything sent, as long as the broker keeps
            // acknowledging within the timeout; what is still queued then is counted as dropped
            if (!result.deliveryFailed) {
                drained(queue);
            }
            sender.close(Duration.ofSeconds(2));
            result.batches = batcher.batches();
            result.acknowledged = counters.snapshot().getBatchesSent();
        }
    }

    /** Waits until the broker acknowledged everything queued; false when it stalls for the timeout. */
    private boolean drained(SendQueue queue) {
        try {
            return queue.awaitDrained(System.nanoTime() + options.timeoutMillis * 1_000_000L, options.timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Properties producerProperties() {
        Properties p = KafkaBatchSender.producerProperties(options.bootstrapServers);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "cctflow-import");
        return p;
    }

    private InstanceInfo instanceInfo(Path file, String instance, long startMillis) {
        Map<String, String> labels = new LinkedHashMap<>(options.labels);
        labels.putIfAbsent(LABEL_SOURCE, file.getFileName().toString());
        return InstanceInfo.newBuilder()
                .setService(options.service)
                .setVersion(options.version)
                .setInstanceId(instance)
                .setHost(HOST)
                .setPid(0)
                .setStartTimeMillis(startMillis)
                .setLabels(labels)
                .build();
    }

    private void progress(Path file, EventTimeBatcher batcher) {
        long now = System.nanoTime();
        if (now - lastProgressNanos >= PROGRESS_EVERY_NANOS) {
            lastProgressNanos = now;
            err.println(PREFIX + "... " + file + ": " + batcher.samples() + " samples, "
                    + batcher.batches() + " batches so far; " + filesDone + " files done");
        }
    }

    private void fail(String message) {
        filesFailed++;
        err.println(PREFIX + "ERROR " + message);
    }

    private int summary() {
        out.println(PREFIX + filesDone + " files imported, " + filesFailed + " failed; "
                + samples + " samples in " + batches + " acknowledged batches to topic "
                + options.topic);
        return filesFailed == 0 ? OK : FAILED;
    }

    /** What happened to one file. */
    private static final class FileResult {
        String error;
        long samples;
        long batches;
        long acknowledged;
        long skippedLines;
        long unsent;
        boolean deliveryFailed;

        boolean ok() {
            return error == null && skippedLines == 0 && acknowledged == batches;
        }

        /** Nothing of the file was handed to Kafka: importing it again duplicates nothing. */
        boolean nothingSent() {
            return batches - unsent == 0;
        }
    }
}
