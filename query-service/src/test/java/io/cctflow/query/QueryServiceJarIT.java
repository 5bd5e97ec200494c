package io.cctflow.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.servers.TestServers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.Driver;

/**
 * The query service as it ships: {@code java -jar target/cctflow-query-service.jar} in a JVM of
 * its own, configured by a file or by environment variables, against the test Neo4j.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class QueryServiceJarIT {
    private static final Pattern LISTENING = Pattern.compile("listening on [^:]+:(\\d+)");
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Process> processes = new ArrayList<>();

    @BeforeAll
    static void storeAService() {
        try (Driver driver = TestServers.get().newDriver()) {
            new QueryFixture().write(driver, 7);
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (Process p : processes) {
            p.destroy();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void startsWithConfigFileAndServesProbesAndTheApi(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("query.properties");
        Files.writeString(config, String.join("\n", "port=0", "neo4j.uri=" + TestServers.get().neo4jUri(),
                "neo4j.user=" + TestServers.get().neo4jUser(), "neo4j.password=" + TestServers.get().neo4jPassword(),
                "kafka.bootstrap.servers=" + TestServers.get().kafkaBootstrapServers(), "alerting.top-k=3", ""));
        int port = start(List.of("--config", config.toString()), Map.of());

        assertThat(get(port, "/healthz", null).statusCode()).isEqualTo(200);
        HttpResponse<String> ready = get(port, "/readyz", null);
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).contains("\"ready\"");
        HttpResponse<String> services = get(port, "/api/v1/services", null);
        assertThat(services.statusCode()).isEqualTo(200);
        assertThat(services.body()).contains("\"" + QueryFixture.SERVICE + "\"");
        assertThat(get(port, "/metrics", null).statusCode()).isEqualTo(200);
    }

    @Test
    void startsFromEnvironmentVariablesWithProbesOpenAndTheApiBehindTheToken() throws Exception {
        int port = start(List.of(), Map.of("CCTFLOW_PORT", "0", "CCTFLOW_NEO4J_URI", TestServers.get().neo4jUri(),
                "CCTFLOW_NEO4J_USER", TestServers.get().neo4jUser(),
                "CCTFLOW_NEO4J_PASSWORD", TestServers.get().neo4jPassword(),
                "CCTFLOW_AUTH_TOKEN", "s3cret", "CCTFLOW_ROLLUP_INTERVAL", "1m"));

        assertThat(get(port, "/healthz", null).statusCode()).isEqualTo(200);
        assertThat(get(port, "/readyz", null).statusCode()).isEqualTo(200);
        assertThat(get(port, "/api/v1/services", null).statusCode()).isEqualTo(401);
        HttpResponse<String> services = get(port, "/api/v1/services", "s3cret");
        assertThat(services.statusCode()).isEqualTo(200);
        assertThat(services.body()).contains("\"" + QueryFixture.SERVICE + "\"");
    }

    @Test
    void isLiveButNotReadyWithoutNeo4j() throws Exception {
        // rollup.interval=0: no schema to create at start, so the service starts without Neo4j
        int port = start(List.of("--port", "0", "--neo4j.uri", "bolt://127.0.0.1:1", "--rollup.interval", "0"),
                Map.of());

        assertThat(get(port, "/healthz", null).statusCode()).isEqualTo(200);
        HttpResponse<String> ready = get(port, "/readyz", null);
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(ready.body()).contains("neo4j");
    }

    @Test
    void badKeyExitsNamingIt() throws Exception {
        Process p = launch(List.of("--limits.max-windowz", "5"), Map.of());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).contains("limits.max-windowz");
    }

    private int start(List<String> args, Map<String, String> env) throws Exception {
        Process p = launch(args, env);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Integer> port = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        return Integer.parseInt(m.group(1));
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            throw new IllegalStateException("the query service exited with " + p.exitValue() + " before listening");
        });
        int result = port.get(2, TimeUnit.MINUTES);
        CompletableFuture.runAsync(() -> out.lines().forEach(line -> { })); // keep draining its output
        return result;
    }

    private Process launch(List<String> args, Map<String, String> env) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-jar", System.getProperty("cctflow.queryJar")));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("CCTFLOW_"));
        builder.environment().putAll(env);
        Process p = builder.start();
        processes.add(p);
        return p;
    }

    private HttpResponse<String> get(int port, String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
