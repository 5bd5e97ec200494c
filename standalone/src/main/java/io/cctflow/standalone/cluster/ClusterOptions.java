package io.cctflow.standalone.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command line of {@code standalone cluster}. Bad arguments fail with a message that says what to write.
 *
 * @param jobJar the Flink job jar to submit
 * @param queryJar the query service's runnable jar
 * @param queryPort port of the first query service; the second listens on the next one
 */
public record ClusterOptions(boolean demo, Path dataDir, Path jobJar, Path queryJar, int queryPort, int parallelism) {
    public static final String USAGE = """
            usage: java -jar standalone/target/cctflow-standalone.jar cluster [demo] [options]

              demo                 also run a demo JVM with the cctflow agent attached
              --data-dir DIR       where every process keeps its data (default ./cctflow-cluster)
              --job-jar FILE       the Flink job jar (default flink-jobs/target/cctflow-flink-job.jar)
              --query-jar FILE     the query service jar (default query-service/target/cctflow-query-service.jar)
              --port N             port of the first query service, the second on N+1 (default 8080)
              --parallelism N      the job's parallelism, 1 to 4 (two TaskManagers of two slots; default 2)
              --help               this text
            """;

    public static ClusterOptions parse(String... args) {
        boolean demo = false;
        Path dataDir = Path.of("cctflow-cluster");
        Path jobJar = Path.of("flink-jobs", "target", "cctflow-flink-job.jar");
        Path queryJar = Path.of("query-service", "target", "cctflow-query-service.jar");
        int port = 8080;
        int parallelism = 2;
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String arg = rest.remove(0);
            switch (arg) {
                case "demo" -> demo = true;
                case "--data-dir" -> dataDir = Path.of(value(arg, rest));
                case "--job-jar" -> jobJar = Path.of(value(arg, rest));
                case "--query-jar" -> queryJar = Path.of(value(arg, rest));
                case "--port" -> port = number(arg, value(arg, rest), 1, 65534);
                case "--parallelism" -> parallelism = number(arg, value(arg, rest), 1, 4);
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'\n" + USAGE);
            }
        }
        for (Path jar : List.of(jobJar, queryJar)) {
            if (!jar.toFile().isFile()) {
                throw new IllegalArgumentException(jar.toAbsolutePath() + " does not exist: run `mvn -DskipTests package`"
                        + " at the repository's root, or name the jar with --job-jar / --query-jar");
            }
        }
        return new ClusterOptions(demo, dataDir.toAbsolutePath().normalize(), jobJar.toAbsolutePath(),
                queryJar.toAbsolutePath(), port, parallelism);
    }

    private static int number(String option, String v, int min, int max) {
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException(option + " must be a number from " + min + " to " + max + ", got '" + v + "'");
    }

    private static String value(String option, List<String> rest) {
        if (rest.isEmpty() || rest.get(0).startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return rest.remove(0);
    }
}
