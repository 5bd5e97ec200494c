package io.cctflow.query.api.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cctflow.core.Cct;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.core.diff.TreeDiff;
import io.cctflow.core.diff.Weight;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.WindowCounts;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.MethodRecord;
import io.cctflow.query.QueryService;
import io.cctflow.servers.Neo4jServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.neo4j.driver.Driver;

/**
 * Times {@code GET /api/v1/compare} of two deployments of about 200,000 CCT nodes each (issue 6:
 * goal under 2 s), stored by the graph-store writer over 10 one-minute windows in a real Neo4j
 * started for the run alone ({@link Neo4jServer}, data under {@code target/}; no Kafka needed). The stacks are shaped like {@code bench}'s {@code TreeDiffBenchmark}: depth 5..39, outer
 * frames from fewer methods; v2 replays them with counts within ±20 %, 2 % with one frame replaced,
 * and 0.5 % also through a method only v2 has. Prints each call's wall time and the median.
 *
 * <p>Run (from the repository root, after {@code mvn -pl query-service -am test-compile}):
 * see query-service/README.md, "Compare". Arguments: [nodes] [timed calls].
 */
public final class CompareEndpointBenchmark {
    private CompareEndpointBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        Path home = Files.createTempDirectory(Path.of("target"), "compare-bench-neo4j");
        int status = 0;
        try (Neo4jServer neo4j = Neo4jServer.start(home)) {
            System.out.printf("Neo4j up in %d ms%n", neo4j.startupTime().toMillis());
            run(GraphStoreConfig.unauthenticated(neo4j.boltUri()), nodes, calls);
        } catch (Exception | Error e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status); // the embedded Neo4j's Bolt threads are not daemons

    }

    /** Where the time of one comparison goes, measured in-process against the same database. */
    private static void phases(GraphStoreConfig graph) {
        try (Driver driver = graph.openDriver()) {
            CatalogueReader catalogue = new CatalogueReader(driver, "");
            WindowReader windowReader = new WindowReader(driver, "", 0L);
            TopologyReader topologyReader = new TopologyReader(driver, "", 0); // no topology cache: every read goes to Neo4j
            for (int round = 0; round < 3; round++) {
                long t0 = System.nanoTime();
                List<String> keys = catalogue.instances(StoredStacks.SERVICE).stream()
                        .map(i -> i.executionId().key()).toList();
                List<WindowCounts> windows = windowReader.windows(keys.subList(0, 1), 0, Long.MAX_VALUE);
                long t1 = System.nanoTime();
                TreeCounts sum = TreeCounts.empty();
                for (WindowCounts w : windows) {
                    sum = sum.plus(w.counts());
                }
                long t2 = System.nanoTime();
                List<Long> ids = Arrays.stream(sum.nodeIds()).boxed().toList();
                List<NodeRecord> topology = topologyReader.nodes(ids);
                long t3 = System.nanoTime();
                Cct tree = topologyReader.rebuild(sum);
                long t4 = System.nanoTime();
                TreeDiff.compare(tree, tree, ChangeList.NONE, Weight.SELF, 1.0, 20);
                long t5 = System.nanoTime();
                System.out.printf("one side: %d windows read %.0f ms, summed %.0f ms; %,d node records read %.0f ms;"
                                + " rebuild (reads them again, uncached) %.0f ms; diff against itself %.0f ms%n",
                        windows.size(), (t1 - t0) / 1e6, (t2 - t1) / 1e6, topology.size(), (t3 - t2) / 1e6,
                        (t4 - t3) / 1e6, (t5 - t4) / 1e6);
            }
        }
    }

    private static void run(GraphStoreConfig graph, int nodes, int calls) throws Exception {
        Random random = new Random(11);
        MethodRecord[] alphabet = new MethodRecord[2_000];
        for (int i = 0; i < alphabet.length; i++) {
            alphabet[i] = MethodRecord.of("com.example.C" + (i % 97), "m" + i, "()V");
        }
        MethodRecord added = MethodRecord.of("com.example.New", "added", "()V");
        StoredStacks v1 = new StoredStacks("v1", "i1");
        StoredStacks v2 = new StoredStacks("v2", "i1");
        Cct sizeA = new Cct(nodes + nodes / 4);
        Cct sizeB = new Cct(nodes + nodes / 4);
        while (sizeA.size() < nodes) {
            int depth = 5 + random.nextInt(35);
            MethodRecord[] frames = new MethodRecord[depth];
            int[] lines = new int[depth];
            for (int d = 0; d < depth; d++) {
                frames[d] = alphabet[random.nextInt(Math.min(alphabet.length, 2 + d * 40))];
                lines[d] = random.nextInt(4);
            }
            long count = 1 + random.nextInt(20);
            int window = random.nextInt(10);
            List<StoredStacks.Stack> a = List.of(new StoredStacks.Stack(frames, lines, count, window));
            v1.add(a);
            StoredStacks.add(sizeA, a.get(0));
            MethodRecord[] f2 = frames;
            if (random.nextInt(100) < 2) {
                f2 = frames.clone();
                f2[1 + random.nextInt(depth - 1)] = alphabet[random.nextInt(alphabet.length)];
            }
            long c2 = Math.max(1, Math.round(count * (0.8 + 0.4 * random.nextDouble())));
            List<StoredStacks.Stack> b = new ArrayList<>();
            b.add(new StoredStacks.Stack(f2, lines, c2, window));
            if (random.nextInt(1_000) < 5) {
                MethodRecord[] n = f2.clone();
                n[1 + random.nextInt(depth - 1)] = added;
                b.add(new StoredStacks.Stack(n, lines, c2, window));
            }
            v2.add(b);
            b.forEach(s -> StoredStacks.add(sizeB, s));
        }
        System.out.printf("trees: v1 %,d nodes, v2 %,d nodes, %,d stacks each%n", sizeA.size() - 1,
                sizeB.size() - 1, v1.stacks.size());

        try (Driver driver = graph.openDriver()) {
            GraphSchema.ensure(driver, "");
            long t0 = System.nanoTime();
            GraphWriter writer = new GraphWriter(driver, "");
            v1.write(writer);
            v2.write(writer);
            System.out.printf("written through GraphWriter in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        }
        try (QueryService service = QueryService.start(graph, "127.0.0.1", 0)) {
            HttpClient http = HttpClient.newHttpClient();
            URI uri = URI.create("http://127.0.0.1:" + service.port()
                    + "/api/v1/compare?service=" + StoredStacks.SERVICE + "&a.version=v1&b.version=v2&top=20");
            double[] millis = new double[calls];
            for (int k = -2; k < calls; k++) { // two warm-up calls
                long start = System.nanoTime();
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).build(),
                        HttpResponse.BodyHandlers.ofString());
                double ms = (System.nanoTime() - start) / 1e6;
                if (r.statusCode() != 200) {
                    throw new IllegalStateException("compare failed: " + r.statusCode() + " " + r.body());
                }
                if (k == -2) {
                    JsonNode body = new ObjectMapper().readTree(r.body());
                    System.out.printf("response: %,d bytes; nodes a %s b %s; common tree %s; overlap self %s;"
                                    + " score %s; %d differences; %d attributions%n", r.body().length(),
                            body.at("/a/nodes"), body.at("/b/nodes"), body.at("/commonTree/size"),
                            body.at("/overlap/self"), body.at("/score"), body.get("differences").size(),
                            body.get("attributions").size());
                }
                System.out.printf("%s call: %.0f ms%n", k == -2 ? "first (cold JVM, empty topology cache)"
                        : k < 0 ? "warm-up" : "timed", ms);
                if (k >= 0) {
                    millis[k] = ms;
                }
            }
            Arrays.sort(millis);
            phases(graph);
            System.out.printf("median of %d calls: %.0f ms (min %.0f, max %.0f)%n", calls, millis[calls / 2],
                    millis[0], millis[calls - 1]);
        }
    }
}
