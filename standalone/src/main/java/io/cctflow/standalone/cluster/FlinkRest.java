package io.cctflow.standalone.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The parts of Flink's REST API the cluster uses: cluster overview, jar upload and run (what
 * {@code flink run} and the web UI do), job state, checkpoints and cancel. Thread-safe.
 */
public final class FlinkRest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    public FlinkRest(String base) {
        this.base = base;
    }

    public String base() {
        return base;
    }

    /** {@code GET /overview}: task managers, slots, jobs. */
    public JsonNode overview() throws IOException, InterruptedException {
        return get("/overview");
    }

    /** Uploads a job jar; returns its id on the cluster. */
    public String uploadJar(Path jar) throws IOException, InterruptedException {
        String boundary = "cctflow-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                + jar.getFileName() + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        body.write(Files.readAllBytes(jar));
        body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        JsonNode answer = send(HttpRequest.newBuilder(URI.create(base + "/jars/upload"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));
        String file = answer.path("filename").asText();
        if (file.isEmpty()) {
            throw new IOException("jar upload answered without a file name: " + answer);
        }
        return Path.of(file).getFileName().toString();
    }

    /**
     * Runs an uploaded jar's main class with {@code args}; {@code restoreFrom} (null: none) is a
     * retained checkpoint or savepoint to start from. Returns the job id.
     */
    public String runJar(String jarId, String entryClass, List<String> args, int parallelism, String restoreFrom)
            throws IOException, InterruptedException {
        ObjectNode request = JSON.createObjectNode();
        request.put("entryClass", entryClass);
        request.putPOJO("programArgsList", args);
        request.put("parallelism", parallelism);
        if (restoreFrom != null) {
            request.put("savepointPath", restoreFrom);
        }
        JsonNode answer = send(HttpRequest.newBuilder(URI.create(base + "/jars/" + jarId + "/run"))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofMinutes(3))
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(request))));
        return answer.path("jobid").asText();
    }

    /** The job's state, e.g. {@code RUNNING}, {@code RESTARTING}. */
    public String jobState(String jobId) throws IOException, InterruptedException {
        return get("/jobs/" + jobId).path("state").asText();
    }

    /** Number of completed checkpoints of the job. */
    public long completedCheckpoints(String jobId) throws IOException, InterruptedException {
        return get("/jobs/" + jobId + "/checkpoints").path("counts").path("completed").asLong();
    }

    /**
     * Number of failures the job has recorded (and restarted from), from its exception history:
     * the job details carry no restart count (the first run of ClusterFailuresIT waited on one in
     * vain while the JobManager's log showed the restarts).
     */
    public long restarts(String jobId) throws IOException, InterruptedException {
        return get("/jobs/" + jobId + "/exceptions").path("exceptionHistory").path("entries").size();
    }

    /**
     * The resource ids of the TaskManagers running at least one of the job's subtasks, e.g.
     * {@code taskmanager-1}: a failure test kills one of these, not an idle one.
     */
    public Set<String> taskManagersOf(String jobId) throws IOException, InterruptedException {
        Set<String> ids = new TreeSet<>();
        for (JsonNode vertex : get("/jobs/" + jobId).path("vertices")) {
            for (JsonNode tm : get("/jobs/" + jobId + "/vertices/" + vertex.path("id").asText() + "/taskmanagers")
                    .path("taskmanagers")) {
                ids.add(tm.path("taskmanager-id").asText());
            }
        }
        ids.remove("");
        return ids;
    }

    /** Cancels the job (its retained checkpoints stay). */
    public void cancel(String jobId) throws IOException, InterruptedException {
        send(HttpRequest.newBuilder(URI.create(base + "/jobs/" + jobId + "?mode=cancel"))
                .method("PATCH", HttpRequest.BodyPublishers.noBody()));
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    private JsonNode send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpRequest built = request.timeout(Duration.ofMinutes(3)).build();
        HttpResponse<String> response = http.send(built, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("Flink REST " + built.method() + " " + built.uri().getPath() + " answered "
                    + response.statusCode() + ": " + response.body());
        }
        return response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
    }
}
