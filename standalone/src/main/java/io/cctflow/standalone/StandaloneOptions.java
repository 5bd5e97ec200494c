package io.cctflow.standalone;

import io.cctflow.query.QueryServiceConfig;
import io.cctflow.query.alerting.AlertingConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command line of {@code standalone}. Bad arguments fail with a message that says what to write.
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

    public static final String USAGE = """
            usage: java -jar standalone/target/cctflow-standalone.jar [demo] [options]

              demo                 also run a demo JVM with the cctflow agent attached
              --data-dir DIR       where Kafka, Neo4j and Flink keep their data (default ./cctflow-data)
              --port N             port of the query API (default 8080)
              --bind ADDRESS       address the query API listens on (default 127.0.0.1)
              --agent-jar FILE     agent jar for the demo (default: cctflow-agent.jar next to this jar)
              --set KEY=VALUE      a query-service key (repeatable): alerting.* (e.g.
                                   alerting.watch=demo-shop:io.cctflow.standalone.demo.Shop.priceCart),
                                   auth.token, limits.*, rollup.*, retention.*; see the README
              --help               this text
            """;

    public static StandaloneOptions parse(String... args) {
        boolean demo = false;
        Path dataDir = Path.of("cctflow-data");
        String bind = "127.0.0.1";
        int port = 8080;
        Path agentJar = null;
        Map<String, String> settings = new LinkedHashMap<>();
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String arg = rest.remove(0);
            switch (arg) {
                case "demo" -> demo = true;
                case "--data-dir" -> dataDir = Path.of(value(arg, rest));
                case "--bind" -> bind = value(arg, rest);
                case "--agent-jar" -> agentJar = Path.of(value(arg, rest));
                case "--set" -> setting(value(arg, rest), settings);
                case "--port" -> {
                    String v = value(arg, rest);
                    try {
                        port = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        port = -1;
                    }
                    if (port < 0 || port > 65535) {
                        throw new IllegalArgumentException("--port must be a number from 0 to 65535, got '" + v + "'");
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'\n" + USAGE);
            }
        }
        validate(settings);
        return new StandaloneOptions(demo, dataDir.toAbsolutePath().normalize(), bind, port, agentJar,
                Map.copyOf(settings));
    }

    /** The query service's configuration: {@code --set} keys over the defaults, then standalone's own. */
    QueryServiceConfig queryConfig(Map<String, String> own) {
        Map<String, String> all = new LinkedHashMap<>();
        querySettings.forEach((k, v) -> {
            if (!k.startsWith("alerting.")) {
                all.put(k, v);
            }
        });
        all.putAll(own);
        return QueryServiceConfig.defaults().with(all);
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
        Map<String, String> query = new LinkedHashMap<>(settings);
        query.keySet().removeIf(k -> k.startsWith("alerting."));
        try {
            QueryServiceConfig.defaults().with(query);
            AlertingConfig.from(settings);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--set: " + e.getMessage(), e);
        }
    }

    private static String value(String option, List<String> rest) {
        if (rest.isEmpty() || rest.get(0).startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return rest.remove(0);
    }
}
