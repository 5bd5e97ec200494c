package io.cctflow.agent.importer;

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

/**
 * The options of {@code java -jar cctflow-collector.jar import}, parsed and validated:
 * {@code --name value} or {@code --name=value}, then files and directories. Not changed after {@link #parse}; safe to
 * share between threads after that.
 */
public final class ImportOptions {
    static final String DEFAULT_BOOTSTRAP = "localhost:9092";
    static final String DEFAULT_TOPIC = "cctflow.samples";

    /** Bad command-line arguments; the message is one line naming the option. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    String bootstrapServers = DEFAULT_BOOTSTRAP;
    String topic = DEFAULT_TOPIC;
    String service = "unknown-service";
    String version = "unknown";
    /** Null: derived from each file's name. */
    String instance;
    Map<String, String> labels = Map.of();
    long windowMillis = 10_000;
    int periodMillis = 20;
    /** Null: a collapsed file's samples are put at its last-modified time. */
    Instant time;
    boolean watch;
    long pollMillis = 1_000;
    long timeoutMillis = 30_000;
    boolean help;
    List<Path> paths = new ArrayList<>();

    private ImportOptions() {
    }

    /** The usage text of {@code --help}. */
    public static String usage() {
        return String.join("\n",
                "usage: java -jar cctflow-collector.jar import [options] <file-or-directory>...",
                "",
                "Publishes .jfr recordings (jdk.ExecutionSample events) and collapsed-stack files",
                "(FlameGraph / async-profiler 'collapsed': a;b;c 42) as SampleBatches to Kafka.",
                "In a directory: *.jfr, *.collapsed, *.folded and *.txt files. Exit code 0 when",
                "everything was read and acknowledged by the broker, 1 when some input could not",
                "be read or published (each problem is printed), 2 for bad arguments.",
                "",
                "options:",
                "  --bootstrap-servers <host:port,...>  Kafka (default " + DEFAULT_BOOTSTRAP + ")",
                "  --topic <name>           topic for the batches (default " + DEFAULT_TOPIC + ")",
                "  --service <name>         service of the imported data (default unknown-service)",
                "  --version <name>         deployment version (default unknown)",
                "  --instance <name>        instance id (default: the file name without extension)",
                "  --labels <k=v;k=v>       free labels (default none)",
                "  --window <duration>      batch window by event time, 100ms..1h (default 10s)",
                "  --period <duration>      sampling period stored in the batches, 1ms..60s (default 20ms)",
                "  --time <ISO instant>     event time of collapsed files (default: file modification time)",
                "  --watch                  keep watching the directories for new complete files;",
                "                           one that failed is tried again when it changes;",
                "                           Ctrl-C finishes the current file and exits",
                "  --poll <duration>        how often --watch looks, 100ms..1h (default 1s)",
                "  --timeout <duration>     wait for the broker at most this long, 1s..1h (default 30s)",
                "  --help                   this text",
                "",
                "durations: 500ms, 10s, 1m or a bare number of milliseconds");
    }

    /** Parses {@code args} (without the {@code import} command). */
    public static ImportOptions parse(String[] args) throws UsageException {
        ImportOptions o = new ImportOptions();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                o.paths.add(Path.of(arg));
                continue;
            }
            if (arg.equals("--")) {
                for (i++; i < args.length; i++) {
                    o.paths.add(Path.of(args[i]));
                }
                break;
            }
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            if (name.equals("--help") || name.equals("--watch")) {
                if (value != null) {
                    throw new UsageException("option " + name + " takes no value");
                }
                if (name.equals("--help")) {
                    o.help = true;
                } else {
                    o.watch = true;
                }
                continue;
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new UsageException("option " + name + " needs a value");
                }
                value = args[++i];
            }
            o.set(name, value);
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

    private void set(String name, String value) throws UsageException {
        switch (name) {
            case "--bootstrap-servers" -> bootstrapServers = parse(name, value, ConfigParsers.bootstrapServers());
            case "--topic" -> topic = parse(name, value, ConfigParsers.name());
            case "--service" -> service = parse(name, value, ConfigParsers.name());
            case "--version" -> version = parse(name, value, ConfigParsers.name());
            case "--instance" -> instance = parse(name, value, ConfigParsers.name());
            case "--labels" -> labels = parse(name, value, ConfigParsers::labels);
            case "--window", "--flush" -> windowMillis = parse(name, value, ConfigParsers.millis(100, 3_600_000));
            case "--period" -> periodMillis = Math.toIntExact(parse(name, value, ConfigParsers.millis(1, 60_000)));
            case "--poll" -> pollMillis = parse(name, value, ConfigParsers.millis(100, 3_600_000));
            case "--timeout" -> timeoutMillis = parse(name, value, ConfigParsers.millis(1_000, 3_600_000));
            case "--time" -> time = parse(name, value, raw -> {
                try {
                    return Instant.parse(raw);
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("not an ISO-8601 instant (e.g. 2024-05-01T12:00:00Z)");
                }
            });
            default -> throw new UsageException("unknown option " + name + " (see --help)");
        }
    }

    private static <T> T parse(String name, String raw, ValueParser<T> parser)
            throws UsageException {
        try {
            return parser.parse(raw.trim());
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new UsageException("bad value '" + raw + "' for option " + name + ": "
                    + e.getMessage());
        }
    }
}
