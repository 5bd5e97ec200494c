package io.cctflow.standalone;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command line of {@code standalone}. Bad arguments fail with a message that says what to write.
 *
 * @param agentJar null: the {@code cctflow-agent.jar} next to our own jar
 */
public record StandaloneOptions(boolean demo, Path dataDir, String bindAddress, int port, Path agentJar) {
    public static final String USAGE = """
            usage: java -jar standalone/target/cctflow-standalone.jar [demo] [options]

              demo                 also run a demo JVM with the cctflow agent attached
              --data-dir DIR       where Kafka, Neo4j and Flink keep their data (default ./cctflow-data)
              --port N             port of the query API (default 8080)
              --bind ADDRESS       address the query API listens on (default 127.0.0.1)
              --agent-jar FILE     agent jar for the demo (default: cctflow-agent.jar next to this jar)
              --help               this text
            """;

    public static StandaloneOptions parse(String... args) {
        boolean demo = false;
        Path dataDir = Path.of("cctflow-data");
        String bind = "127.0.0.1";
        int port = 8080;
        Path agentJar = null;
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String arg = rest.remove(0);
            switch (arg) {
                case "demo" -> demo = true;
                case "--data-dir" -> dataDir = Path.of(value(arg, rest));
                case "--bind" -> bind = value(arg, rest);
                case "--agent-jar" -> agentJar = Path.of(value(arg, rest));
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
        return new StandaloneOptions(demo, dataDir.toAbsolutePath().normalize(), bind, port, agentJar);
    }

    private static String value(String option, List<String> rest) {
        if (rest.isEmpty() || rest.get(0).startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return rest.remove(0);
    }
}
