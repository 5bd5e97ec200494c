package io.cctflow.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import io.cctflow.servers.TestServers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.neo4j.driver.Driver;

/**
 * Random samples of three instances of one service (two deployments), written to the real Neo4j
 * with the graph-store writer exactly as the samples job writes them, and kept in memory so a
 * test can build the reference tree of any selection with cct-core.
 */
final class QueryFixture {
    static final String SERVICE = "shop";
    static final long T0 = Instant.parse("2026-01-05T00:00:00Z").toEpochMilli();
    static final long WINDOW = 60_000;
    static final List<MethodRecord> METHODS = List.of(
            MethodRecord.of("com.shop.Main", "main", "()V"),
            MethodRecord.of("com.shop.Cart", "total", "(I)J"),
            MethodRecord.of("com.shop.Cart", "total", "()J"),
            MethodRecord.of("com.shop.Tax", "rate", "()D"),
            MethodRecord.of("com.shop.Db", "query", "()V"),
            MethodRecord.of("com.shop.Json", "write", "()V"));
    static final String[] THREADS = {"main", "worker-1", "worker-2"};

    /** One aggregated stack of one window of one instance. */
    record Sample(String execution, long windowStart, long[] methods, int[] lines, String thread, long count) {
    }

    /** (instance, version, labels, first window, windows). */
    record Spec(String instance, String version, Map<String, String> labels, int firstWindow, int windows) {
    }

    static final List<Spec> SPECS = List.of(
            new Spec("a", "v1", Map.of("zone", "x"), 0, 4),
            new Spec("b", "v1", Map.of("zone", "y"), 1, 4),
            new Spec("c", "v2", Map.of("zone", "x"), 5, 3));

    /** Stacks of the default fixture are 1 to this many frames deep. */
    static final int DEFAULT_MAX_DEPTH = 6;

    final List<Sample> samples = new ArrayList<>();
    final Map<Long, NodeRecord> nodes = new LinkedHashMap<>();
    /** Every window written, with random truncated-stack outcomes (the tree holds the merged ones). */
    final List<WindowCounts> windows = new ArrayList<>();
    private final int maxDepth;

    /** Stacks 1 to {@link #DEFAULT_MAX_DEPTH} frames deep. */
    QueryFixture() {
        this(DEFAULT_MAX_DEPTH);
    }

    /**
     * Stacks 1 to {@code maxDepth} frames deep; beyond the default depth, the first stack of every
     * window is {@code maxDepth} deep, so the deepest path is certain to be there.
     */
    QueryFixture(int maxDepth) {
        this.maxDepth = maxDepth;
    }

    /** A fixture written to Neo4j and a query service over it; closing stops both. */
    record Served(Driver driver, QueryService service, Api api) implements AutoCloseable {
        @Override
        public void close() {
            service.close();
            driver.close();
        }
    }

    /** Writes this fixture ({@link #write}) and starts a query service over it ({@link #startService}). */
    Served serve(long seed) throws IOException {
        Driver driver = TestServers.get().newDriver();
        write(driver, seed);
        QueryService service = startService();
        return new Served(driver, service, new Api(service.port(), null));
    }

    /** The query service over the test servers' Neo4j, on a free port, without the roll-up scheduler. */
    static QueryService startService() throws IOException {
        return startService(Map.of());
    }

    /** {@link #startService()} with some configuration keys set otherwise, e.g. smaller limits. */
    static QueryService startService(Map<String, String> overrides) throws IOException {
        Map<String, String> config = new HashMap<>(Map.of(
                QueryServiceConfig.PORT, "0", QueryServiceConfig.NEO4J_URI, TestServers.get().neo4jUri(),
                QueryServiceConfig.BOOTSTRAP_SERVERS, TestServers.get().kafkaBootstrapServers(),
                QueryServiceConfig.ROLLUP_INTERVAL, "0"));
        config.putAll(overrides);
        return QueryService.start(QueryServiceConfig.defaults().with(config));
    }

    static String key(String instance) {
        return new ExecutionId(SERVICE, SPECS.stream().filter(s -> s.instance().equals(instance)).findFirst()
                .orElseThrow().version(), instance).key();
    }

    /** Writes everything; the graph is emptied first. */
    void write(Driver driver, long seed) {
        TestServers.get().cleanNeo4j();
        GraphSchema.ensure(driver, "");
        GraphWriter writer = new GraphWriter(driver, "");
        Random random = new Random(seed);
        Random truncation = new Random(seed + 1); // its own, so the stacks of a seed stay what they were
        writer.writeMethods(METHODS);
        List<InstanceRecord> instances = new ArrayList<>();
        for (Spec spec : SPECS) {
            String execution = new ExecutionId(SERVICE, spec.version(), spec.instance()).key();
            for (int w = spec.firstWindow(); w < spec.firstWindow() + spec.windows(); w++) {
                long start = T0 + w * WINDOW;
                Cct tree = new Cct();
                for (int s = 0; s < 3 + random.nextInt(10); s++) {
                    int depth = s == 0 && maxDepth > DEFAULT_MAX_DEPTH ? maxDepth : 1 + random.nextInt(maxDepth);
                    long[] methods = new long[depth];
                    int[] lines = new int[depth];
                    methods[0] = METHODS.get(random.nextInt(2)).id(); // few thread roots
                    for (int d = 1; d < depth; d++) {
                        methods[d] = METHODS.get(random.nextInt(METHODS.size())).id();
                        lines[d] = 10 + random.nextInt(2);
                    }
                    String thread = THREADS[random.nextInt(THREADS.length)];
                    long count = 1 + random.nextInt(20);
                    tree.addStack(methods, lines, depth, tree.thread(thread), count);
                    samples.add(new Sample(execution, start, methods, lines, thread, count));
                }
                for (int i = 1; i < tree.size(); i++) {
                    int rp = tree.recursiveParent(i);
                    nodes.putIfAbsent(tree.id(i), new NodeRecord(tree.id(i), tree.id(tree.parent(i)), tree.method(i),
                            tree.callSiteLine(i), tree.depth(i), rp < 0 ? NodeRecord.NO_RECURSIVE_PARENT : tree.id(rp)));
                }
                windows.add(new WindowCounts(execution, start, start + WINDOW, TreeCounts.of(tree),
                        new TruncationCounts(truncation.nextInt(5), truncation.nextInt(3), truncation.nextInt(3),
                                truncation.nextInt(2))));
            }
            instances.add(new InstanceRecord(SERVICE, spec.version(), spec.instance(), "host-" + spec.instance(), 7,
                    T0, spec.labels(), T0 + spec.firstWindow() * WINDOW,
                    T0 + (spec.firstWindow() + spec.windows()) * WINDOW));
        }
        writer.writeInstances(instances);
        writer.writeNodes(new ArrayList<>(nodes.values()));
        writer.writeWindowCounts(windows);
    }

    /** The reference: cct-core's tree of the samples of these executions in windows overlapping [from, to). */
    Cct reference(List<String> executions, long from, long to) {
        return reference(executions, from, to, thread -> true);
    }

    /** {@link #reference(List, long, long)} of the samples whose (raw) thread name passes {@code thread}. */
    Cct reference(List<String> executions, long from, long to, java.util.function.Predicate<String> thread) {
        Cct tree = new Cct();
        for (Sample s : samples) {
            if (executions.contains(s.execution()) && s.windowStart() < to && s.windowStart() + WINDOW > from
                    && thread.test(s.thread())) {
                tree.addStack(s.methods(), s.lines(), s.methods().length, tree.thread(s.thread()), s.count());
            }
        }
        return tree;
    }

    static Map<Long, String> signatures() {
        Map<Long, String> m = new HashMap<>();
        METHODS.forEach(r -> m.put(r.id(), r.signature()));
        return m;
    }

    /** A tiny HTTP client for the API. */
    static final class Api {
        /** Reads trees as deep as the API writes them. */
        static final ObjectMapper JSON = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
                .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                        .maxNestingDepth(1_000_000).build()).build());
        private final HttpClient http = HttpClient.newHttpClient();
        private final String base;
        private final String token;

        Api(int port, String token) {
            this.base = "http://127.0.0.1:" + port;
            this.token = token;
        }

        HttpResponse<String> send(String method, String path, String body) {
            // bounded: a hanging server fails the test instead of hanging it
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            try {
                return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        /** GET, asserting the status; the body parsed. */
        JsonNode get(String path, int status) {
            HttpResponse<String> r = send("GET", path, null);
            if (r.statusCode() != status) {
                throw new AssertionError("GET " + path + ": expected " + status + " but got " + r.statusCode() + ": "
                        + r.body());
            }
            try {
                return JSON.readTree(r.body());
            } catch (IOException e) {
                throw new AssertionError("GET " + path + " returned no JSON: " + r.body(), e);
            }
        }
    }

    static String enc(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
    }
}
