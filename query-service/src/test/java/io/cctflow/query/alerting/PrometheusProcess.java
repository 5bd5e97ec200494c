package io.cctflow.query.alerting;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server (the binary of Debian's {@code prometheus} package) as a child process
 * on a loopback port, with its data directory under {@code target/}. Killed by {@link #close()}.
 */
final class PrometheusProcess implements AutoCloseable {
    /** System property naming the binary; otherwise {@code prometheus} is looked up on the PATH. */
    static final String BINARY_PROPERTY = "cctflow.prometheus";

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final String base;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private PrometheusProcess(Process process, String base, Path log) {
        this.process = process;
        this.base = base;
        this.log = log;
    }

    /**
     * The binary, or an {@link AssertionError} saying how to install it: the end-to-end proof must
     * not pass silently on a machine that cannot run it.
     */
    static Path binary() {
        String configured = System.getProperty(BINARY_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured);
            if (!Files.isExecutable(p)) {
                throw new AssertionError("-D" + BINARY_PROPERTY + "=" + configured + " is not an executable file");
            }
            return p;
        }
        Optional<Path> onPath = Optional.ofNullable(System.getenv("PATH")).stream()
                .flatMap(path -> java.util.Arrays.stream(path.split(File.pathSeparator)))
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, "prometheus")).filter(Files::isExecutable).findFirst();
        return onPath.orElseThrow(() -> new AssertionError("the Prometheus server binary 'prometheus' is not on "
                + "the PATH, so the alerting end-to-end test cannot run: install Debian's package with "
                + "'apt-get install prometheus' (.ci/run does), or point -D" + BINARY_PROPERTY
                + " at a prometheus binary (2.x)"));
    }

    /**
     * Starts Prometheus scraping {@code target} (host:port, path /metrics) with the given rules file,
     * scrape and evaluation every second, and waits until it is ready.
     */
    static PrometheusProcess start(Path dir, String target, Path rules) throws IOException {
        Path binary = binary();
        Files.createDirectories(dir);
        int port = freePort();
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  evaluation_interval: 1s
                rule_files:
                  - %s
                scrape_configs:
                  - job_name: cctflow
                    metrics_path: /metrics
                    static_configs:
                      - targets: ['%s']
                """.formatted(rules.toAbsolutePath(), target));
        Path log = dir.resolve("prometheus.log");
        Process process = new ProcessBuilder(binary.toString(), "--config.file=" + config.toAbsolutePath(),
                "--storage.tsdb.path=" + dir.resolve("data").toAbsolutePath(),
                "--web.listen-address=127.0.0.1:" + port, "--log.level=info")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        PrometheusProcess p = new PrometheusProcess(process, "http://127.0.0.1:" + port, log);
        try {
            await("Prometheus ready at " + p.base + " (log: " + log + ")").atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new AssertionError("Prometheus exited with " + process.exitValue() + ": "
                                    + Files.readString(log));
                        }
                        return p.status("/-/ready") == 200;
                    });
        } catch (RuntimeException | AssertionError e) {
            p.close();
            throw e;
        }
        return p;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private int status(String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1; // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** GET of an API path; its {@code data} member. */
    JsonNode api(String pathAndQuery) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(r.body());
            if (r.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
                throw new AssertionError("Prometheus " + pathAndQuery + " answered " + r.statusCode() + ": " + r.body());
            }
            return body.get("data");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** An instant PromQL query: {@code data.result}. */
    JsonNode query(String promql) {
        return api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)).get("result");
    }

    Path log() {
        return log;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
