package io.cctflow.bench.parcs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real pipeline ({@code standalone}: Kafka broker, Neo4j, the samples job on a Flink
 * MiniCluster, the query API) as a child process, so the harness uses exactly what users run.
 * The addresses are read from the progress lines {@code standalone} prints.
 */
final class PipelineProcess implements AutoCloseable {
    private static final Pattern KAFKA = Pattern.compile("Kafka broker \\(KRaft\\) at (\\S+?),");
    private static final Pattern NEO4J = Pattern.compile("Neo4j at (bolt://\\S+)");
    private static final Pattern API = Pattern.compile("query API at (http://\\S+?)/api/v1/");

    private final Process process;
    private final String kafka;
    private final String bolt;
    private final String api;

    private PipelineProcess(Process process, String kafka, String bolt, String api) {
        this.process = process;
        this.kafka = kafka;
        this.bolt = bolt;
        this.api = api;
    }

    /**
     * Starts {@code standalone} with its data in {@code dataDir} and an API on a free port, and
     * waits until it says it is up.
     *
     * @throws IOException when it exits or does not come up within {@code timeout}, with the last
     *     lines it printed
     */
    static PipelineProcess start(Path standaloneJar, Path dataDir, Duration timeout) throws IOException {
        if (!Files.isRegularFile(standaloneJar)) {
            throw new IOException(standaloneJar + " not found: build it first with"
                    + " 'mvn -B -ntp -DskipTests package'");
        }
        Files.createDirectories(dataDir);
        Process p = new ProcessBuilder(List.of(javaBinary(), "-jar", standaloneJar.toString(),
                "--data-dir", dataDir.toString(), "--port", "0"))
                .redirectErrorStream(true).start();
        List<String> seen = new ArrayList<>();
        CompletableFuture<String[]> up = CompletableFuture.supplyAsync(() -> readUntilUp(p, seen));
        try {
            String[] addresses = up.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return new PipelineProcess(p, addresses[0], addresses[1], addresses[2]);
        } catch (Exception e) {
            p.destroyForcibly();
            synchronized (seen) {
                throw new IOException("standalone did not come up within " + timeout + "; it printed:\n"
                        + String.join("\n", seen), e);
            }
        }
    }

    private static String[] readUntilUp(Process p, List<String> seen) {
        String[] found = new String[3];
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        try {
            for (String line; (line = out.readLine()) != null; ) {
                synchronized (seen) {
                    seen.add(line);
                }
                match(KAFKA, line, found, 0);
                match(NEO4J, line, found, 1);
                match(API, line, found, 2);
                if (line.startsWith("cctflow is up")) {
                    drain(out);
                    return found;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("reading standalone's output failed", e);
        }
        throw new IllegalStateException("standalone exited before it was up");
    }

    private static void match(Pattern pattern, String line, String[] found, int slot) {
        Matcher m = pattern.matcher(line);
        if (m.find()) {
            found[slot] = m.group(1);
        }
    }

    /** Keeps reading the child's output so it never blocks on a full pipe. */
    private static void drain(BufferedReader out) {
        Thread t = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // progress lines after start-up are not needed
                }
            } catch (IOException e) {
                // the child is gone
            }
        }, "standalone-output");
        t.setDaemon(true);
        t.start();
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    String kafkaBootstrap() {
        return kafka;
    }

    String boltUri() {
        return bolt;
    }

    /** Base URL of the query API, without a trailing slash. */
    String api() {
        return api;
    }

    /** Stops it as Ctrl-C would (its shutdown hook stops every component in order). */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
