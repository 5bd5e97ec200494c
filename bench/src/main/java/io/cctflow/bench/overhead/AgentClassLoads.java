package io.cctflow.bench.overhead;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The classes our agent's attach loads into a JVM, found once per run in a calibration child, so
 * that both children of the attach rounds load them before their workload is compiled
 * ({@code --preload yes}).
 *
 * <p>Why: loading a class can break an assumption C2 compiled the host's hot code under (a class
 * with no loaded subclass, a method with one implementation); the JVM then throws that code away
 * and compiles it again. Our agent's attach does this to the benchmark's workload (the first
 * {@code PatternSyntaxException}, the agent's shaded subclasses of {@code ArrayList} and
 * {@code ConcurrentHashMap}: see bench/README.md), a one-time cost that {@code -javaagent} pays
 * before the host's code is compiled at all. With these classes loaded into both children at
 * start, the attach rounds measure what the running agent costs, not one recompilation of a tiny
 * workload.
 *
 * <p>The calibration child is started as the attached setup's control (plain JFR 20 ms, or no JFR
 * at all, when the attach also starts JFR and its classes load then) with {@code -Xlog:class+load}; our
 * agent is attached to it with a short flush interval and it runs {@link #CALIBRATION} so that the
 * agent starts, flushes and sends several batches and its code manifest; every class named in the
 * log from the attach on (the first class of {@code sun.instrument} or of the agent) is listed,
 * except those the JVM generates (hidden classes such as lambda forms, dynamic proxies, reflection
 * accessors: their {@code source:} starts with {@code __}), which cannot be loaded by name.
 */
final class AgentClassLoads {
    /** The list's name in the run's directory: one binary class name per line. */
    static final String FILE = "agent-classes.txt";
    /** How long the calibration child runs with the agent attached. */
    static final Duration CALIBRATION = Duration.ofSeconds(12);
    /** The calibration agent's flush interval: several flushes and sends within {@link #CALIBRATION}. */
    static final Duration CALIBRATION_FLUSH = Duration.ofSeconds(2);
    /** The topic the calibration agent publishes to, apart from the measured setups' topics. */
    static final String TOPIC = "cctflow.bench.calibration";

    private static final String LOG = "calibration-class-load.log";
    private static final String SOURCE = " source: ";

    private AgentClassLoads() {
    }

    /**
     * Runs the calibration child and writes the list to {@link #FILE} in {@code runDir}; returns it.
     *
     * @throws IllegalStateException if the log names no class loaded by the attach
     */
    static Path calibrate(OverheadOptions options, String bootstrap, Path runDir, ProcessFreezer freezer)
            throws IOException, InterruptedException {
        Path log = runDir.resolve(LOG);
        // without an attached setup (a run with jfr20preloaded) the agent is attached as to jfr20attached
        Setup attached = options.attached().orElse(Setup.JFR_20_ATTACHED);
        Setup control = attached.control();
        List<String> jvm = new ArrayList<>(control.jvmOptions(options.agentJar(), bootstrap, runDir,
                options.flush(), options.stackDepth(), 0));
        jvm.add("-Xlog:class+load=info:file=" + log.toAbsolutePath());
        Child child = Child.start(control, 0, jvm, options, runDir, freezer, Optional.empty());
        try {
            child.attachAgent(freezer, options.agentJar(), attached.agentArguments(TOPIC, bootstrap,
                    CALIBRATION_FLUSH, options.stackDepth(), 0));
            freezer.thaw(child.pid());
            TimeUnit.NANOSECONDS.sleep(CALIBRATION.toNanos());
            child.end(freezer);
        } finally {
            child.kill();
        }
        List<String> classes = loadedByAttach(Files.readAllLines(log, StandardCharsets.UTF_8));
        if (classes.isEmpty()) {
            throw new IllegalStateException("the calibration child's class-load log " + log
                    + " names no class of sun.instrument or io.cctflow.agent: was the agent attached?");
        }
        Path list = runDir.resolve(FILE);
        Files.write(list, classes, StandardCharsets.UTF_8);
        System.err.printf(Locale.ROOT, "calibration: our agent's attach loaded %d classes (%s); %s load them at"
                + " start%n", classes.size(), list, options.attached().isPresent() ? "both children of every round"
                : "the children of " + Setup.JFR_20_PRELOADED.id());
        return list;
    }

    /**
     * The classes named in a {@code -Xlog:class+load} log from the first one of
     * {@code sun.instrument} or {@code io.cctflow.agent} on, each once, in log order, without those
     * the JVM generates (a {@code /} in the name, a source starting with {@code __}). Lines of other
     * tags or without {@code source:} are skipped.
     */
    static List<String> loadedByAttach(List<String> logLines) {
        Set<String> classes = new LinkedHashSet<>();
        boolean attached = false;
        for (String line : logLines) {
            String name = loadableClass(line);
            if (name == null) {
                continue;
            }
            attached |= name.startsWith("sun.instrument.") || name.startsWith("io.cctflow.agent.");
            if (attached) {
                classes.add(name);
            }
        }
        return List.copyOf(classes);
    }

    /**
     * The class a {@code [..][info][class,load] name source: ...} line names; null for other lines
     * and for classes the JVM generates.
     */
    private static String loadableClass(String line) {
        int tags = line.indexOf("[class,load]");
        int source = line.indexOf(SOURCE);
        if (tags < 0 || source < tags || line.startsWith("__", source + SOURCE.length())) {
            return null;
        }
        String name = line.substring(tags + "[class,load]".length(), source).strip();
        return name.isEmpty() || name.indexOf(' ') >= 0 || name.indexOf('/') >= 0 ? null : name;
    }
}
