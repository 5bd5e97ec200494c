package io.cctflow.bench.migration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cctflow.bench.pipeline.EmbeddedPipeline;
import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.core.migration.ImpactAnalysis;
import io.cctflow.core.migration.MigrationQuality;
import io.cctflow.core.migration.ProfileMigration;
import io.cctflow.core.migration.ShareTolerance;
import io.cctflow.flink.SamplesJobConfig;
import io.cctflow.query.QueryService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Profile migration in the query service (issue 32, seed 001) through the real pipeline: a small
 * shop (the demo's shape) compiled here in two versions that differ in one method, {@code
 * Shop.priceCart} doing twice the work per item in 1.1 (so its bytecode, and its CodeManifest
 * fingerprint, differ), each run in its own JVM under the real agent ({@code -javaagent}, CodeManifests
 * on) into Kafka, the samples job on a Flink MiniCluster and Neo4j ({@link EmbeddedPipeline}, 5 s
 * windows so a range can end early in a run), read back through the query service's {@code
 * /api/v1/tree} over HTTP. At 10 %, 25 % and 50 % of 1.1's eventual samples (the first window end
 * where its cumulative samples reach the fraction) it prints seed 001's Acc of the answer with
 * {@code migrate=off}, {@code AG} and {@code BA}, and of the earlier fixed rule recomputed on the
 * same trees ({@link FixedPhaseOut}), each against 1.1's full profile, under two tolerances ({@link
 * ShareTolerance}).
 *
 * <pre>
 * java -cp 'bench/target/classes:bench/target/lib/*' io.cctflow.bench.migration.MigrationAccuracyBenchmark \
 *      [agent jar, default bench/target/cctflow-agent.jar] [seconds per version, default 60]
 * </pre>
 */
public final class MigrationAccuracyBenchmark {
    static final String SERVICE = "mig-shop";
    static final String OLD = "1.0";
    static final String NEW = "1.1";
    static final Duration WINDOW = Duration.ofSeconds(5);
    static final double[] FRACTIONS = {0.10, 0.25, 0.50};
    static final List<ShareTolerance> TOLERANCES = List.of(ShareTolerance.sampling(2), ShareTolerance.absolute(0.01));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Every method id {@link #cct} made, with its signature. */
    private static final Map<Long, String> SIGNATURES = new ConcurrentHashMap<>();

    private MigrationAccuracyBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path agent = Path.of(args.length > 0 ? args[0] : "bench/target/cctflow-agent.jar").toAbsolutePath();
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        if (!Files.isRegularFile(agent)) {
            throw new IllegalArgumentException("agent jar not found at " + agent + "; build it with"
                    + " 'mvn -B -ntp -q -DskipTests package -pl bench -am' or give its path as the first argument");
        }
        Path work = Files.createTempDirectory("cctflow-migration-bench");
        Path oldClasses = ShopSources.compile(work.resolve("v1.0"), 1);
        Path newClasses = ShopSources.compile(work.resolve("v1.1"), 2);
        try (EmbeddedPipeline pipeline = EmbeddedPipeline.start(work.resolve("pipeline"),
                Map.of(SamplesJobConfig.WINDOW, WINDOW.toMillis() + "ms"), 1);
                QueryService query = QueryService.start(pipeline.config().graph(), "127.0.0.1", 0)) {
            String api = "http://127.0.0.1:" + query.port();
            String kafka = pipeline.config().bootstrapServers();
            log("pipeline up; running " + OLD + " for " + seconds + " s");
            run(oldClasses, agent, kafka, OLD, seconds, work.resolve("v1.0.log"));
            awaitSettled(api, OLD);
            log("running " + NEW + " (Shop.priceCart does twice the work) for " + seconds + " s");
            run(newClasses, agent, kafka, NEW, seconds, work.resolve("v1.1.log"));
            long full = awaitSettled(api, NEW);
            JsonNode fullAnswer = tree(api, "&migrate=off");
            Cct reference = cct(fullAnswer.get("root"));
            JsonNode check = tree(api, "&migrate=AG");
            if (!check.at("/migration/previous").asText().equals(SERVICE + "@" + OLD)
                    || check.at("/migration/note").asText().contains("no CodeManifest")) {
                throw new IllegalStateException("the migration cannot run: " + check.get("migration"));
            }
            long first = Instant.parse(fullAnswer.get("from").asText()).toEpochMilli();
            long last = Instant.parse(fullAnswer.get("to").asText()).toEpochMilli();
            Cct previous = cct(tree(api, OLD, "&migrate=off").get("root"));
            print(api, reference, previous, full, first, last, seconds);
        }
    }

    private static void print(String api, Cct reference, Cct previous, long full, long first, long last, int seconds)
            throws IOException, InterruptedException {
        System.out.printf(Locale.ROOT, "%n%s %s -> %s, %d s each, period 5 ms; %s's full profile: %d samples, %d"
                + " contexts; load average %s%n", SERVICE, OLD, NEW, seconds, NEW, full, reference.size() - 1,
                Files.readString(Path.of("/proc/loadavg")).trim());
        System.out.println("| share of " + NEW + "'s samples | samples | tolerance | Acc migrate=off | Acc AG |"
                + " AG migrated share | Acc BA | BA migrated share | Acc AG, earlier fixed rule |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        int k = 1;
        for (double fraction : FRACTIONS) {
            String to = null;
            long samples = 0;
            for (; first + k * WINDOW.toMillis() < last + WINDOW.toMillis(); k++) {
                to = Instant.ofEpochMilli(Math.min(first + k * WINDOW.toMillis(), last)).toString();
                samples = tree(api, "&migrate=off&to=" + to).get("totalSamples").asLong();
                if (samples >= fraction * full) {
                    break;
                }
            }
            JsonNode off = tree(api, "&migrate=off&to=" + to);
            JsonNode ag = tree(api, "&migrate=AG&to=" + to);
            JsonNode ba = tree(api, "&migrate=BA&to=" + to);
            Cct young = cct(off.get("root"));
            Cct fixed = FixedPhaseOut.answer(previous, FixedPhaseOut.changes(previous, young, ".priceCart("), young);
            for (ShareTolerance tolerance : TOLERANCES) {
                System.out.printf(Locale.ROOT, "| %.0f %% (%.3f) | %d | %s | %.3f | %.3f | %.3f%s | %.3f | %.3f%s | %.3f |%n",
                        fraction * 100, (double) samples / full, samples, tolerance, acc(off, reference, tolerance),
                        acc(ag, reference, tolerance), ag.at("/migration/migratedShare").asDouble(), phasedOut(ag),
                        acc(ba, reference, tolerance), ba.at("/migration/migratedShare").asDouble(), phasedOut(ba),
                        acc(fixed, reference, tolerance));
            }
        }
    }

    /** Whether the rule phased the migration out, else how many pooled contexts it dropped, and tau2. */
    private static String phasedOut(JsonNode answer) {
        JsonNode m = answer.get("migration");
        int dropped = m.get("droppedContexts").asInt();
        String tau = String.format(Locale.ROOT, ", tau2 %.1e", m.get("betweenDeploymentVariance").asDouble());
        return m.get("phasedOut").asBoolean() ? " (phased out: " + dropped + " contexts dropped" + tau + ")"
                : " (" + dropped + " of " + (dropped + m.get("blendedContexts").asInt()) + " contexts dropped" + tau + ")";
    }

    /** Seed 001's Acc of an answer's tree against the full profile ({@link MigrationQuality#acc}). */
    static double acc(JsonNode answer, Cct reference, ShareTolerance tolerance) {
        return acc(cct(answer.get("root")), reference, tolerance);
    }

    static double acc(Cct tree, Cct reference, ShareTolerance tolerance) {
        return MigrationQuality.of(ProfileMigration.migrate(new Cct(), ChangeList.NONE, ImpactAnalysis.AG, tree),
                reference, tolerance).acc();
    }

    /** The signature of a method id {@link #cct} made; "" for another. */
    static String signatureOf(long id) {
        return SIGNATURES.getOrDefault(id, "");
    }

    /** The tree of a {@code /api/v1/tree} answer, method ids from the signatures. */
    static Cct cct(JsonNode root) {
        Cct tree = new Cct();
        tree.addCounts(Cct.ROOT, root.get("self").asLong(), root.get("total").asLong());
        List<JsonNode> nodes = new ArrayList<>();
        List<Integer> parents = new ArrayList<>();
        root.get("children").forEach(c -> {
            nodes.add(c);
            parents.add(Cct.ROOT);
        });
        for (int i = 0; i < nodes.size(); i++) {
            JsonNode n = nodes.get(i);
            long id = MethodId.ofSignature(n.get("method").asText());
            SIGNATURES.put(id, n.get("method").asText());
            int node = tree.child(parents.get(i), id, n.get("line").asInt());
            tree.addCounts(node, n.get("self").asLong(), n.get("total").asLong());
            n.get("children").forEach(c -> {
                nodes.add(c);
                parents.add(node);
            });
        }
        return tree;
    }

    private static JsonNode tree(String api, String more) throws IOException, InterruptedException {
        return tree(api, NEW, more);
    }

    private static JsonNode tree(String api, String version, String more) throws IOException, InterruptedException {
        String url = api + "/api/v1/tree?service=" + SERVICE + "&version=" + version + more;
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException(url + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    /** Waits until the version's stored samples stop changing for 16 s (the job has written everything). */
    private static long awaitSettled(String api, String version) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        long last = -1;
        long stableSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            String url = api + "/api/v1/tree?service=" + SERVICE + "&version=" + version + "&maxDepth=1";
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString());
            long samples = r.statusCode() == 200 ? JSON.readTree(r.body()).get("totalSamples").asLong() : 0;
            if (samples != last) {
                last = samples;
                stableSince = System.nanoTime();
            } else if (samples > 0 && System.nanoTime() - stableSince >= TimeUnit.SECONDS.toNanos(16)) {
                log(version + ": " + samples + " samples stored");
                return samples;
            }
            Thread.sleep(2_000); // polling the store for a condition, with a deadline
        }
        throw new IllegalStateException(version + "'s samples did not settle within 5 minutes (last " + last + ")");
    }

    private static void run(Path classes, Path agent, String kafka, String version, int seconds, Path log)
            throws IOException, InterruptedException {
        String agentArgs = "bootstrap.servers=" + kafka + ",service=" + SERVICE + ",version=" + version
                + ",instance=run-" + version + ",period=5ms,flush=2s,stackdepth=256";
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:FlightRecorderOptions:stackdepth=256", "-javaagent:" + agent + "=" + agentArgs,
                "-cp", classes.toString(), "migshop.Main", Integer.toString(seconds))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(seconds + 120L, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(version + " did not end cleanly; see " + log);
        }
    }

    private static void log(String line) {
        System.out.println("[" + Instant.now() + "] " + line);
    }

    /** The shop's two versions as Java sources, compiled here; they differ only in priceCart's work per item. */
    static final class ShopSources {
        private ShopSources() {
        }

        /** Compiles the version whose priceCart does {@code factor} times the baseline work; returns the class directory. */
        static Path compile(Path dir, int factor) throws IOException {
            Path src = dir.resolve("src/migshop");
            Files.createDirectories(src);
            Files.writeString(src.resolve("Main.java"), MAIN);
            Files.writeString(src.resolve("Shop.java"), SHOP.replace("WORK", Integer.toString(40 * factor)));
            Path out = dir.resolve("classes");
            Files.createDirectories(out);
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            int rc = javac.run(null, null, null, "-g", "-d", out.toString(), src.resolve("Main.java").toString(),
                    src.resolve("Shop.java").toString());
            if (rc != 0) {
                throw new IOException("compiling the shop failed (" + rc + ")");
            }
            return out;
        }

        private static final String MAIN = """
                package migshop;

                public final class Main {
                    public static void main(String[] args) throws Exception {
                        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
                        Thread[] workers = new Thread[3];
                        for (int i = 0; i < workers.length; i++) {
                            int seed = i;
                            workers[i] = new Thread(() -> {
                                Shop shop = new Shop(seed);
                                while (System.nanoTime() < end) {
                                    shop.handleRequest();
                                }
                            }, "shop-worker-" + i);
                            workers[i].start();
                        }
                        for (Thread t : workers) {
                            t.join();
                        }
                        System.out.println(Shop.sink);
                    }
                }
                """;

        /** The demo's Shop (standalone's demo package) with the work per item of priceCart as WORK. */
        private static final String SHOP = """
                package migshop;

                import java.util.ArrayList;
                import java.util.HashMap;
                import java.util.List;
                import java.util.Map;

                final class Shop {
                    static volatile long sink;
                    private final Map<Integer, Integer> stock = new HashMap<>();
                    private int request;

                    Shop(int seed) {
                        for (int i = 0; i < 10_000; i++) {
                            stock.put(i * 31 + seed, i % 17);
                        }
                    }

                    void handleRequest() {
                        request++;
                        long price = priceCart(200 + request % 50);
                        int available = checkInventory(250);
                        long score = score(22 + request % 3);
                        String body = renderResponse(price, available, score);
                        sink += body.length();
                    }

                    long priceCart(int items) {
                        long total = 0;
                        for (int i = 0; i < items * WORK; i++) {
                            total += (i * 2654435761L) % 997;
                        }
                        return total;
                    }

                    int checkInventory(int lookups) {
                        int found = 0;
                        for (int i = 0; i < lookups * 20; i++) {
                            Integer qty = stock.get((i * 7) % 310_000);
                            if (qty != null && qty > 0) {
                                found++;
                            }
                        }
                        return found;
                    }

                    static long score(int n) {
                        return n < 2 ? n : score(n - 1) + score(n - 2);
                    }

                    String renderResponse(long price, int available, long score) {
                        List<String> parts = new ArrayList<>();
                        for (int i = 0; i < 600; i++) {
                            parts.add("{\\"item\\":" + i + ",\\"price\\":" + (price + i) + ",\\"stock\\":" + available + "}");
                        }
                        return String.join(",", parts) + score;
                    }
                }
                """;
    }
}
