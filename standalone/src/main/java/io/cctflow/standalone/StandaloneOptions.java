package io.cctflow.standalone;

import io.cctflow.query.QueryServiceConfig;
import io.cctflow.query.QueryServiceSettings;
import io.cctflow.query.alerting.AlertingConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Command line of {@code standalone}, parsed with picocli. Bad arguments fail with a message that
 * says what to write.
 *
 * @param agentJar null: the {@code cctflow-agent.jar} next to our own jar
 * @param querySettings query-service keys given with {@code --set key=value} ({@code alerting.*} and
 *     the {@link QueryServiceConfig} keys standalone does not set itself), already validated
 */
public record StandaloneOptions(boolean demo, Path dataDir, String bindAddress, int port, Path agentJar,
        Map<String, String> querySettings) {
    /** Query-service keys standalone sets itself (its own servers, {@code --bind}, {@code --port}). */
    static final Set<String> OWN_KEYS = Set.of(QueryServiceConfig.BIND, QueryServiceConfig.PORT,
            QueryServiceConfig.NEO4J_URI, QueryServiceConfig.NEO4J_USER, QueryServiceConfig.NEO4J_PASSWORD,
            QueryServiceConfig.NEO4J_DATABASE, QueryServiceConfig.BOOTSTRAP_SERVERS, QueryServiceConfig.TASKS_TOPIC);

    /** The command line as picocli fills it in; turned into the record by {@link #parse}. */
    @Command(name = "standalone", sortOptions = false, synopsisHeading = "", usageHelpWidth = 100,
            customSynopsis = "usage: java -jar standalone/target/cctflow-standalone.jar [demo] [options]",
            description = {"", "The whole pipeline on one machine: Kafka, Neo4j, the samples job and the query API.",
                ""},
            footer = {"", "Keys and their defaults: query-service/README.md."})
    static final class Arguments {
        @Parameters(paramLabel = "demo", arity = "0..1",
                description = "also run a demo JVM with the cctflow agent attached")
        String mode;
        @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "cctflow-data",
                description = "where Kafka, Neo4j and Flink keep their data (default ./${DEFAULT-VALUE})")
        Path dataDir;
        @Option(names = "--port", paramLabel = "N", defaultValue = "8080", converter = Port.class,
                description = "port of the query API (default ${DEFAULT-VALUE})")
        int port;
        @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
                description = "address the query API listens on (default ${DEFAULT-VALUE})")
        String bind;
        @Option(names = "--agent-jar", paramLabel = "FILE",
                description = "agent jar for the demo (default: cctflow-agent.jar next to this jar)")
        Path agentJar;
        @Option(names = "--set", paramLabel = "KEY=VALUE",
                description = "a query-service key (repeatable): alerting.* (e.g. alerting.watch=demo-shop:"
                        + "io.cctflow.standalone.demo.Shop.priceCart), auth.token, limits.*, rollup.*, retention.*")
        List<String> settings = new ArrayList<>();
        @Option(names = "--help", usageHelp = true, description = "this text")
        boolean help;
    }

    /** {@code --port}: 0 to 65535. */
    static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                int port = Integer.parseInt(value.trim());
                if (port >= 0 && port <= 65535) {
                    return port;
                }
            } catch (NumberFormatException e) {
                // the message below says what is wanted
            }
            throw new IllegalArgumentException("must be a number from 0 to 65535, got '" + value + "'");
        }
    }

    /** The {@code --help} text. */
    public static String usage() {
        StringWriter text = new StringWriter();
        commandLine(new Arguments()).usage(new PrintWriter(text), CommandLine.Help.Ansi.OFF);
        return text.toString();
    }

    /** Whether the arguments ask for {@code --help} (then nothing else is checked). */
    public static boolean asksForHelp(String... args) {
        return List.of(args).contains("--help");
    }

    /** @throws IllegalArgumentException one line naming the bad argument */
    public static StandaloneOptions parse(String... args) {
        Arguments a = new Arguments();
        try {
            commandLine(a).parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(describe(e) + " (see --help)", e);
        }
        if (a.mode != null && !a.mode.equals("demo")) {
            throw new IllegalArgumentException("unknown argument '" + a.mode + "' (see --help)");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        a.settings.forEach(text -> setting(text, settings));
        validate(settings);
        return new StandaloneOptions(a.mode != null, a.dataDir.toAbsolutePath().normalize(), a.bind, a.port,
                a.agentJar, Map.copyOf(settings));
    }

    private static CommandLine commandLine(Arguments arguments) {
        return new CommandLine(arguments).setExpandAtFiles(false).setOverwrittenOptionsAllowed(true);
    }

    private static String describe(CommandLine.ParameterException e) {
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            return "unknown argument '" + u.getUnmatched().get(0) + "'";
        }
        if (e instanceof CommandLine.MissingParameterException m && !m.getMissing().isEmpty()
                && m.getMissing().get(0) instanceof CommandLine.Model.OptionSpec option) {
            return option.longestName() + " needs a value";
        }
        if (e.getArgSpec() instanceof CommandLine.Model.OptionSpec option
                && e.getCause() instanceof IllegalArgumentException bad) {
            return option.longestName() + " " + bad.getMessage();
        }
        return e.getMessage();
    }

    /** The query service's configuration: {@code --set} keys over the defaults, then standalone's own. */
    QueryServiceConfig queryConfig(Map<String, String> own) {
        Map<String, String> all = new LinkedHashMap<>(querySettings);
        all.putAll(own);
        return QueryServiceSettings.from(all).service();
    }

    /** {@code /metrics} as the {@code alerting.*} keys of {@code --set} configure it. */
    AlertingConfig alertingConfig() {
        return AlertingConfig.from(querySettings);
    }

    private static void setting(String text, Map<String, String> settings) {
        int eq = text.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("--set needs KEY=VALUE, e.g. --set alerting.top-k=5; got '" + text + "'");
        }
        String key = text.substring(0, eq).trim();
        if (OWN_KEYS.contains(key)) {
            throw new IllegalArgumentException("--set " + key + ": standalone sets this key itself"
                    + (key.equals(QueryServiceConfig.BIND) || key.equals(QueryServiceConfig.PORT)
                    ? "; use --" + key : " to its own servers"));
        }
        if (settings.put(key, text.substring(eq + 1)) != null) {
            throw new IllegalArgumentException("--set " + key + " is given twice");
        }
    }

    /** Fails now, naming the key, rather than after Kafka, Neo4j and Flink have started. */
    private static void validate(Map<String, String> settings) {
        try {
            QueryServiceSettings.from(settings);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--set: " + e.getMessage(), e);
        }
    }
}
