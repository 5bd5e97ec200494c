package io.cctflow.bench.overhead;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordingFile;
import jdk.jfr.consumer.RecordingStream;

/**
 * The host JVM of the overhead benchmark (a child of {@link AgentOverheadBenchmark}): runs
 * {@link WorkloadOps} on N worker threads flat out from start to end. It does not measure itself:
 * the workers publish their operation counts in a memory-mapped file ({@link OpsCounters}), and the
 * parent freezes and thaws the whole process ({@code SIGSTOP}/{@code SIGCONT}) and reads the
 * counters and the threads' CPU times ({@code /proc/<pid>/task}) while it is frozen. No thread of
 * the child runs for the measurement, so nothing but the workload, the JVM and the profiler runs
 * in it.
 *
 * <p>Protocol (one line each, {@link SliceProtocol}): once the workers run (and, with
 * {@value #AWAIT_JFR}, a JFR recording runs) the child prints {@code READY awaitMillis=<n>} on
 * stdout. When it reads {@code END} on stdin it stops the workers, calls {@code System.gc()} twice
 * and prints {@code RESULT heapAfterGc=<bytes> rss=<bytes> checksum=<n>}, then exits (the agent's
 * shutdown flush runs then). {@code heapAfterGc}: the workload keeps almost nothing alive, so the
 * difference to a run without agent is what the agent (and its JFR consumer) keeps on the heap;
 * {@code rss} is {@code VmRSS} of {@code /proc/self/status} (0 where there is none).
 *
 * <p>Arguments: {@code threads countersFile [--await-jfr] [--init-jfr] [--stream-jfr] [--dump-jfr] [--tenure]
 * [--preload FILE]}.
 * {@value #AWAIT_JFR}: wait for a running JFR recording before READY (the agent starts on its own
 * thread); the wait is printed. {@value #INIT_JFR}: initialise JFR
 * ({@link FlightRecorder#getFlightRecorder()}) before the workers start, without any recording (an
 * experiment on what JFR's mere presence costs). {@value #PRELOAD}: before the workers start, load
 * and link (without initialising) every class named in FILE, one binary name per line
 * ({@link AgentClassLoads}); how many loaded is printed on stderr. {@value #TENURE}: the main thread
 * builds the workers' state before they start and {@code System.gc()} twice moves it to the old
 * generation, where young collections do not move it (without it each worker builds its own, which
 * every young collection copies): its few KiB are the whole working set of the workload, and where
 * they lie moves its speed by a few per cent, so the young collections, more of them with a
 * profiler's allocations, would otherwise change the host's speed at random, in both directions.
 */
public final class OverheadWorkload {
    /** Argument: wait for a running JFR recording before READY. */
    static final String AWAIT_JFR = "--await-jfr";
    /**
     * Argument: before the workers start, open a JFR event stream in this JVM, as our agent does
     * (jdk.ExecutionSample alone at 20 ms, the same bounds), whose consumer touches nothing of the
     * events: what JFR's streaming costs apart from what a consumer does with the events.
     */
    static final String STREAM_JFR = "--stream-jfr";
    // what the stream and the dumps record: the agent's event at the agent's default period
    private static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    private static final Duration SAMPLE_PERIOD = Duration.ofMillis(20);
    /** The stream's thread; its name puts its CPU under JFR's in {@link ThreadCpu}. */
    static final String STREAM_THREAD = "JFR stream (bench)";
    /**
     * Argument: before the workers start, record jdk.ExecutionSample alone at 20 ms without a
     * stream: every interval (system property {@value #DUMP_MILLIS}) a new recording
     * starts, the previous one stops, is dumped to a file and read back event by event (each event left unread, as
     * {@value #STREAM_JFR}'s): a consumer that reads JFR once per interval instead of once per second.
     */
    static final String DUMP_JFR = "--dump-jfr";
    /** The dumping thread; its name puts its CPU under JFR's in {@link ThreadCpu}. */
    static final String DUMP_THREAD = "JFR dump (bench)";
    /**
     * How often {@value #DUMP_JFR} hands over to a new recording, in milliseconds; the benchmark
     * sets it to its {@code --flush} ({@link Setup#JFR_20_DUMP}), 20 s when it is not set.
     */
    static final String DUMP_MILLIS = "cctflow.bench.dumpMillis";
    /** Argument: initialise JFR without a recording before the workers start. */
    static final String INIT_JFR = "--init-jfr";
    /** Argument: move the workers' state to the old generation before they start. */
    static final String TENURE = "--tenure";
    /** Argument: load the classes a file names before the workers start. */
    static final String PRELOAD = "--preload";
    private static final long AWAIT_LIMIT_MILLIS = 120_000;

    private static volatile boolean running = true;

    private OverheadWorkload() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: OverheadWorkload <threads> <countersFile> [" + AWAIT_JFR + "] [" + INIT_JFR
                    + "] [" + STREAM_JFR + "] [" + DUMP_JFR + "] [" + TENURE + "] [" + PRELOAD + " FILE]");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[0]);
        List<String> flags = new ArrayList<>();
        Path preload = null;
        for (int i = 2; i < args.length; i++) {
            if (args[i].equals(PRELOAD) && i + 1 < args.length) {
                preload = Path.of(args[++i]);
            } else if (args[i].equals(AWAIT_JFR) || args[i].equals(INIT_JFR) || args[i].equals(TENURE)
                    || args[i].equals(STREAM_JFR) || args[i].equals(DUMP_JFR)) {
                flags.add(args[i]);
            } else {
                System.err.println("unknown argument " + args[i]);
                System.exit(2);
            }
        }
        OpsCounters counters = OpsCounters.create(Path.of(args[1]), threads);
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (flags.contains(INIT_JFR)) {
            FlightRecorder.getFlightRecorder();
        }
        if (flags.contains(STREAM_JFR)) {
            startStream();
        }
        if (flags.contains(DUMP_JFR)) {
            startDumps();
        }
        if (preload != null) {
            List<String> names = Files.readAllLines(preload, StandardCharsets.UTF_8);
            List<String> missing = preload(names, ClassLoader.getSystemClassLoader());
            System.err.printf(Locale.ROOT, "preloaded %d of %d classes of %s%s%n", names.size() - missing.size(),
                    names.size(), preload, missing.isEmpty() ? "" : "; not loaded or not linked: " + missing);
        }

        // without --tenure each worker builds its own state (null here), in its own TLAB
        WorkloadOps[] states = new WorkloadOps[threads];
        if (flags.contains(TENURE)) {
            for (int t = 0; t < threads; t++) {
                states[t] = new WorkloadOps();
            }
            System.gc();
            System.gc();
            System.err.println("moved the workers' state to the old generation");
        }
        long[] checksums = new long[threads];
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int slot = t;
            workers[t] = new Thread(() -> checksums[slot] = work(states[slot], counters, slot), "worker-" + (t + 1));
            workers[t].setDaemon(true);
            workers[t].start();
        }

        long awaitMillis = flags.contains(AWAIT_JFR) ? awaitRecording() : 0;
        System.out.println(SliceProtocol.ready(awaitMillis));
        System.out.flush();
        String line;
        while ((line = commands.readLine()) != null && !line.strip().equals(SliceProtocol.END)) {
            System.err.println("ignored command: " + line);
        }

        running = false;
        long checksum = 0;
        for (int t = 0; t < threads; t++) {
            workers[t].join();
            checksum ^= checksums[t];
        }
        System.gc();
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.println(SliceProtocol.result(heap, residentBytes(), checksum));
        System.out.flush();
    }

    /**
     * Loads and links, without initialising, each named class through {@code loader}; returns the
     * names it could not load (not on the class path, or failing to link). Linking matters: with
     * classes only loaded, {@code -XX:+LogCompilation} still showed compiled code thrown away
     * ({@code dependency_failed type='unique_concrete_method_4'}, the witness one of the preloaded
     * classes) when the agent first used them; with them linked ({@link Class#getDeclaredMethods()}
     * links the class), none after the attach.
     */
    static List<String> preload(List<String> names, ClassLoader loader) {
        List<String> missing = new ArrayList<>();
        for (String name : names) {
            try {
                Class.forName(name, false, loader).getDeclaredMethods();
            } catch (ClassNotFoundException | LinkageError e) {
                missing.add(name);
            }
        }
        return missing;
    }

    /** Starts {@value #STREAM_JFR}'s stream on a daemon thread, as the agent starts its own. */
    private static void startStream() {
        Thread t = new Thread(() -> {
            try (RecordingStream rs = new RecordingStream()) {
                rs.setMaxAge(Duration.ofMinutes(2));
                rs.setMaxSize(32L << 20);
                rs.setOrdered(false);
                rs.enable(EXECUTION_SAMPLE).withPeriod(SAMPLE_PERIOD);
                rs.onEvent(EXECUTION_SAMPLE, event -> { });
                rs.start();
            }
        }, STREAM_THREAD);
        t.setDaemon(true);
        t.start();
    }

    /** Starts {@value #DUMP_JFR}'s recordings and their reader on a daemon thread. */
    private static void startDumps() {
        long interval = Long.getLong(DUMP_MILLIS, 20_000);
        Thread t = new Thread(() -> {
            try {
                Path file = Files.createTempFile("cctflow-bench-", ".jfr");
                file.toFile().deleteOnExit();
                Recording current = sampling();
                while (true) {
                    Thread.sleep(interval);
                    Recording next = sampling();
                    current.stop();
                    current.dump(file);
                    current.close();
                    current = next;
                    long n = 0;
                    try (RecordingFile events = new RecordingFile(file)) {
                        for (; events.hasMoreEvents(); n++) {
                            events.readEvent();
                        }
                    }
                    System.err.println(DUMP_THREAD + ": read " + n + " events");
                }
            } catch (IOException | InterruptedException e) {
                System.err.println(DUMP_THREAD + " ended: " + e);
            }
        }, DUMP_THREAD);
        t.setDaemon(true);
        t.start();
    }

    /** A started recording of jdk.ExecutionSample alone at 20 ms, on disk. */
    private static Recording sampling() {
        Recording r = new Recording();
        r.enable(EXECUTION_SAMPLE).withPeriod(SAMPLE_PERIOD);
        r.setToDisk(true);
        r.start();
        return r;
    }

    /**
     * Waits until some JFR recording runs; returns how long that took.
     *
     * @throws IllegalStateException if none runs within two minutes
     */
    private static long awaitRecording() throws InterruptedException {
        long start = System.nanoTime();
        // isInitialized() first: getFlightRecorder() would start JFR itself
        while (!(FlightRecorder.isInitialized() && FlightRecorder.getFlightRecorder().getRecordings().stream()
                .anyMatch(r -> r.getState() == RecordingState.RUNNING))) {
            if (System.nanoTime() - start > AWAIT_LIMIT_MILLIS * 1_000_000) {
                throw new IllegalStateException("no JFR recording started within " + AWAIT_LIMIT_MILLIS + " ms");
            }
            Thread.sleep(50);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    private static long work(WorkloadOps state, OpsCounters counters, int thread) {
        WorkloadOps work = state != null ? state : new WorkloadOps();
        long checksum = 0;
        // each thread runs its own sequence of operations, so the threads' stacks differ
        long op = (long) thread << 40;
        long done = 0;
        while (running) {
            checksum += work.run(op++);
            counters.set(thread, ++done);
        }
        return checksum;
    }

    private static long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: no figure
        }
        return 0;
    }
}
