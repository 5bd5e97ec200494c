package io.cctflow.agent.importer;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.cctflow.agent.ConfigParsers;
import io.cctflow.core.config.ValueParser;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The options of {@code java -jar cctflow-collector.jar import}, parsed (picocli) and validated by
 * the agent's own value parsers: {@code --name value} or {@code --name=value}, then files and
 * directories. Not changed after {@link #parse}; safe to share between threads after that.
 */
@Command(name = "import", sortOptions = false, synopsisHeading = "", usageHelpWidth = 100,
        customSynopsis = "usage: java -jar cctflow-collector.jar import [options] <file-or-directory>...",
        description = {"",
            "Publishes .jfr recordings (jdk.ExecutionSample events) and collapsed-stack files",
            "(FlameGraph / async-profiler 'collapsed': a;b;c 42) as SampleBatches to Kafka.",
            "In a directory: *.jfr, *.collapsed, *.folded and *.txt files. Exit code 0 when",
            "everything was read and acknowledged by the broker, 1 when some input could not",
            "be read or published (each problem is printed), 2 for bad arguments.", "", "options:"},
        footer = {"", "durations: 500ms, 10s, 1m or a bare number of milliseconds"})
public final class ImportOptions {
    /** Bad command-line arguments; the message is one line naming the option. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    @Option(names = "--bootstrap-servers", paramLabel = "<host:port,...>", defaultValue = "localhost:9092",
            converter = BootstrapServers.class, description = "Kafka (default ${DEFAULT-VALUE})")
    String bootstrapServers;
    @Option(names = "--topic", paramLabel = "<name>", defaultValue = "cctflow.samples", converter = Name.class,
            description = "topic for the batches (default ${DEFAULT-VALUE})")
    String topic;
    @Option(names = "--service", paramLabel = "<name>", defaultValue = "unknown-service", converter = Name.class,
            description = "service of the imported data (default ${DEFAULT-VALUE})")
    String service;
    @Option(names = "--version", paramLabel = "<name>", defaultValue = "unknown", converter = Name.class,
            description = "deployment version (default ${DEFAULT-VALUE})")
    String version;
    /** Null: derived from each file's name. */
    @Option(names = "--instance", paramLabel = "<name>", converter = Name.class,
            description = "instance id (default: the file name without extension)")
    String instance;
    Map<String, String> labels = Map.of();
    @Option(names = {"--flush", "--window"}, paramLabel = "<duration>", defaultValue = "10s", converter = Window.class,
            description = "batch window by event time, 100ms..1h (default ${DEFAULT-VALUE})")
    long windowMillis;
    @Option(names = "--period", paramLabel = "<duration>", defaultValue = "20ms", converter = Period.class,
            description = "sampling period stored in the batches, 1ms..60s (default ${DEFAULT-VALUE})")
    int periodMillis;
    /** Null: a collapsed file's samples are put at its last-modified time. */
    @Option(names = "--time", paramLabel = "<ISO instant>", converter = EventTime.class,
            description = "event time of collapsed files (default: file modification time)")
    Instant time;
    @Option(names = "--watch", description = "keep watching the directories for new complete files; one that failed"
            + " is tried again when it changes; Ctrl-C finishes the current file and exits")
    boolean watch;
    @Option(names = "--poll", paramLabel = "<duration>", defaultValue = "1s", converter = Window.class,
            description = "how often --watch looks, 100ms..1h (default ${DEFAULT-VALUE})")
    long pollMillis;
    @Option(names = "--timeout", paramLabel = "<duration>", defaultValue = "30s", converter = Timeout.class,
            description = "wait for the broker at most this long, 1s..1h (default ${DEFAULT-VALUE})")
    long timeoutMillis;
    @Option(names = "--help", usageHelp = true, description = "this text")
    boolean help;
    @Spec
    CommandLine.Model.CommandSpec spec;
    @Parameters(paramLabel = "<file-or-directory>", arity = "0..*", hidden = true)
    List<Path> paths = new ArrayList<>();

    private ImportOptions() {
    }

    /**
     * {@code --labels}: a setter, because picocli would split a {@code Map}-typed option into
     * {@code key=value} pairs itself, and labels have their own syntax.
     */
    @Option(names = "--labels", paramLabel = "<k=v;k=v>", description = "free labels (default none)")
    void labels(String raw) {
        try {
            labels = ConfigParsers.labels(raw.trim());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e,
                    spec.findOption("--labels"), raw);
        }
    }

    /** The usage text of {@code --help}. */
    public static String usage() {
        StringWriter text = new StringWriter();
        commandLine(new ImportOptions()).usage(new PrintWriter(text), CommandLine.Help.Ansi.OFF);
        return text.toString().stripTrailing();
    }

    /** Parses {@code args} (without the {@code import} command). */
    public static ImportOptions parse(String[] args) throws UsageException {
        ImportOptions o = new ImportOptions();
        try {
            commandLine(o).parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new UsageException(describe(e));
        }
        if (o.help) {
            return o;
        }
        if (o.paths.isEmpty()) {
            throw new UsageException("no file or directory given (see --help)");
        }
        for (Path p : o.paths) {
            if (!Files.exists(p)) {
                throw new UsageException("no such file or directory: " + p);
            }
            if (o.watch && !Files.isDirectory(p)) {
                throw new UsageException("option --watch needs directories, but " + p
                        + " is a file");
            }
        }
        o.paths = Collections.unmodifiableList(o.paths);
        return o;
    }

    private static CommandLine commandLine(ImportOptions options) {
        return new CommandLine(options)
                // a file name may start with '@'; a repeated option keeps its last value, as before
                .setExpandAtFiles(false)
                .setOverwrittenOptionsAllowed(true)
                .setUsageHelpLongOptionsMaxWidth(30);
    }

    /** One line naming the option, in the words of our own parsers where they found the fault. */
    private static String describe(CommandLine.ParameterException e) {
        String option = e.getArgSpec() instanceof CommandLine.Model.OptionSpec spec ? spec.longestName() : null;
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            return "unknown option " + u.getUnmatched().get(0) + " (see --help)";
        }
        if (e instanceof CommandLine.MissingParameterException m && !m.getMissing().isEmpty()
                && m.getMissing().get(0) instanceof CommandLine.Model.OptionSpec missing) {
            return "option " + missing.longestName() + " needs a value";
        }
        if (option != null && e.getCause() instanceof IllegalArgumentException bad) {
            return "bad value '" + e.getValue() + "' for option " + option + ": " + bad.getMessage();
        }
        return e.getMessage();
    }

    /** A picocli converter that applies one of the agent's value parsers to the trimmed value. */
    private abstract static class Parsed<T> implements ITypeConverter<T> {
        private final ValueParser<T> parser;

        Parsed(ValueParser<T> parser) {
            this.parser = parser;
        }

        @Override
        public T convert(String value) {
            try {
                return parser.parse(value.trim());
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("out of range", e);
            }
        }
    }

    static final class BootstrapServers extends Parsed<String> {
        BootstrapServers() {
            super(ConfigParsers.bootstrapServers());
        }
    }

    static final class Name extends Parsed<String> {
        Name() {
            super(ConfigParsers.name());
        }
    }

    /** A batch window or poll interval, 100ms..1h. */
    static final class Window extends Parsed<Long> {
        Window() {
            super(ConfigParsers.millis(100, 3_600_000));
        }
    }

    static final class Period extends Parsed<Integer> {
        Period() {
            super(ConfigParsers.millis(1, 60_000).map(Math::toIntExact));
        }
    }

    static final class Timeout extends Parsed<Long> {
        Timeout() {
            super(ConfigParsers.millis(1_000, 3_600_000));
        }
    }

    static final class EventTime extends Parsed<Instant> {
        EventTime() {
            super(raw -> {
                try {
                    return Instant.parse(raw);
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("not an ISO-8601 instant (e.g. 2024-05-01T12:00:00Z)");
                }
            });
        }
    }
}
