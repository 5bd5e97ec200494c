package io.cctflow.query.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.RangePlanner;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowCache;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.NodeTasks;
import io.cctflow.model.WindowCounts;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import io.cctflow.servers.TestServers;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * The tree cache of {@link TreeSource} against the real Neo4j: a repeated load is served from it
 * (the same tree), a new or rewritten window in the range loads the new tree, unsettled windows
 * are neither served nor kept, and it stays within its weight. Every tree loaded equals cct-core's
 * tree of the samples written (stacks merged in memory), the independent expectation. Then the
 * answer cache of {@link TreeEndpoint} (a {@link VersionedCache}): its answers are byte for byte those
 * of an endpoint without it, a new or rewritten window gives the new answer, errors are not kept,
 * and it stays within its bytes.
 */
class TreeSourceCacheTest {
    static final String SERVICE = "cache-shop";
    static final long T0 = Instant.parse("2026-02-01T00:00:00Z").toEpochMilli();
    static final long WINDOW = 60_000;
    static final List<MethodRecord> METHODS = List.of(MethodRecord.of("com.c.Main", "main", "()V"),
            MethodRecord.of("com.c.A", "a", "()V"), MethodRecord.of("com.c.B", "b", "()V"),
            MethodRecord.of("com.c.C", "c", "()V"), MethodRecord.of("com.c.D", "d", "()V"));
    static final String[] THREADS = {"main", "worker-1"};
    static final Limits LIMITS = new Limits(Duration.ofDays(366), 200_000, 200_000, 10_000, 2_000_000, 100);

    private static Driver driver;
    private GraphWriter writer;
    private final Random random = new Random(20261127);
    /** Stacks written, per (execution, window start): (methods, lines, thread, count). */
    private final Map<String, Map<Long, List<Object[]>>> stacks = new LinkedHashMap<>();
    private final Map<Long, NodeRecord> nodes = new HashMap<>();

    @BeforeAll
    static void connect() {
        driver = TestServers.get().newDriver();
    }

    @AfterAll
    static void disconnect() {
        driver.close();
    }

    @BeforeEach
    void writeInstances() {
        TestServers.get().cleanNeo4j();
        GraphSchema.ensure(driver, "");
        writer = new GraphWriter(driver, "");
        writer.writeMethods(METHODS);
        List<InstanceRecord> instances = new ArrayList<>();
        for (String i : List.of("a", "b")) {
            instances.add(new InstanceRecord(SERVICE, "v1", i, "host-" + i, 1, T0, Map.of(), T0, T0 + 10 * WINDOW));
        }
        writer.writeInstances(instances);
    }

    @Test
    void repeatedLoadsAreServedFromTheCacheWhateverTheSelectionThatListsTheSameWindows() {
        writeWindow("a", 0);
        writeWindow("a", 1);
        writeWindow("b", 1);
        TreeSource source = settledAtOnce(TreeSource.DEFAULT_TREE_WEIGHT);
        awaitSettled();

        Cct first = source.load(selection(0, 2, "a", "b"));
        assertThat(TreeCounts.of(first)).isEqualTo(TreeCounts.of(reference(0, 2, "a", "b")));
        assertThat(source.load(selection(0, 2, "a", "b"))).as("the same request").isSameAs(first);
        // another range that reads the same three windows: the same versions, the same tree
        assertThat(TreeCounts.of(source.load(selection(0, 1, "a", "b")))) // reads a@0 only: another tree
                .isEqualTo(TreeCounts.of(reference(0, 1, "a", "b")));
        assertThat(source.load(new Selection(SERVICE, "v1", instances("a", "b"), Instant.ofEpochMilli(T0 + 1),
                Instant.ofEpochMilli(T0 + 2 * WINDOW - 1)))).as("a range over the same windows").isSameAs(first);
        assertThat(source.cache().size()).isEqualTo(2);
    }

    @Test
    void aNewOrRewrittenWindowInTheRangeLoadsTheNewTree() {
        writeWindow("a", 0);
        writeWindow("b", 0);
        TreeSource source = settledAtOnce(TreeSource.DEFAULT_TREE_WEIGHT);
        awaitSettled();
        Cct before = source.load(selection(0, 3, "a", "b"));
        assertThat(source.load(selection(0, 3, "a", "b"))).isSameAs(before);

        writeWindow("b", 2); // a new window in the range
        Cct afterNew = source.load(selection(0, 3, "a", "b"));
        assertThat(afterNew).isNotSameAs(before);
        assertThat(TreeCounts.of(afterNew)).isEqualTo(TreeCounts.of(reference(0, 3, "a", "b")))
                .isNotEqualTo(TreeCounts.of(before));

        awaitSettled();
        Cct settled = source.load(selection(0, 3, "a", "b"));
        assertThat(source.load(selection(0, 3, "a", "b"))).isSameAs(settled);
        writeWindow("a", 0); // a late batch: more samples in a window read before
        Cct afterRewrite = source.load(selection(0, 3, "a", "b"));
        assertThat(afterRewrite).isNotSameAs(settled);
        assertThat(TreeCounts.of(afterRewrite)).isEqualTo(TreeCounts.of(reference(0, 3, "a", "b")))
                .isNotEqualTo(TreeCounts.of(settled));
    }

    @Test
    void repeatedVersionsAreFoundWithoutListingUntilAWindowIsWrittenOrRewritten() {
        writeWindow("a", 0);
        writeWindow("b", 1);
        TreeSource source = settledAtOnce(TreeSource.DEFAULT_TREE_WEIGHT);
        awaitSettled();
        Selection selection = selection(0, 3, "a", "b");
        RangePlanner.Versions listed = source.versions(selection);
        assertThat(listed.plan()).as("listed the first time").isNotNull();
        assertThat(listed.settledVersions()).isNotNull().isEqualTo(listed.plan().settledVersions());
        RangePlanner.Versions again = source.versions(selection);
        assertThat(again.plan()).as("remembered: no listing").isNull();
        assertThat(again.settledVersions()).isEqualTo(listed.settledVersions());
        assertThat(source.versions(selection(0, 2, "a", "b")).plan()).as("another range is listed").isNotNull();

        writeWindow("b", 2); // a new window in the range
        awaitSettled();
        RangePlanner.Versions afterNew = source.versions(selection);
        assertThat(afterNew.plan()).as("listed again after a write").isNotNull();
        assertThat(afterNew.settledVersions()).isNotEqualTo(listed.settledVersions())
                .isEqualTo(source.versions(selection).settledVersions());
        assertThat(TreeCounts.of(source.loadVersioned(selection, source.versions(selection)).named().tree()))
                .isEqualTo(TreeCounts.of(reference(0, 3, "a", "b")));

        writeWindow("a", 0); // a late batch rewrites a window listed before
        awaitSettled();
        RangePlanner.Versions afterRewrite = source.versions(selection);
        assertThat(afterRewrite.plan()).as("listed again after a rewrite").isNotNull();
        assertThat(afterRewrite.settledVersions()).isNotEqualTo(afterNew.settledVersions());
        assertThat(TreeCounts.of(source.loadVersioned(selection, source.versions(selection)).named().tree()))
                .isEqualTo(TreeCounts.of(reference(0, 3, "a", "b")));
    }

    @Test
    void treesAndVersionsOfWindowsWrittenWithinTheSettleTimeAreNeitherServedNorKept() {
        writeWindow("a", 0);
        TreeSource source = new TreeSource(new WindowReader(driver, "",
                new WindowCache(1_000_000, WindowReader.WRITE_MARGIN_MILLIS)), new TopologyReader(driver, ""), LIMITS,
                TreeSource.DEFAULT_TREE_WEIGHT);
        Cct first = source.load(selection(0, 1, "a"));
        assertThat(source.load(selection(0, 1, "a"))).isNotSameAs(first);
        assertThat(TreeCounts.of(source.load(selection(0, 1, "a")))).isEqualTo(TreeCounts.of(reference(0, 1, "a")));
        assertThat(source.cache().size()).isZero();
        // and their versions are never remembered: listed every time
        assertThat(source.versions(selection(0, 1, "a")).settledVersions()).isNull();
        assertThat(source.versions(selection(0, 1, "a")).plan()).as("listed every time").isNotNull();
    }

    @Test
    void theCacheStaysWithinItsWeightEvictingTheLeastRecentlyUsedTree() {
        for (int w = 0; w < 3; w++) {
            writeWindow("a", w);
        }
        TreeSource probe = settledAtOnce(TreeSource.DEFAULT_TREE_WEIGHT);
        awaitSettled();
        long[] weights = new long[3];
        for (int w = 0; w < 3; w++) {
            probe.load(selection(w, w + 1, "a"));
            weights[w] = probe.cache().weight() - (w == 0 ? 0 : sum(weights, w));
        }
        long capacity = Math.max(weights[0] + weights[1], Math.max(weights[1] + weights[2], weights[0] + weights[2]));
        TreeSource source = settledAtOnce(capacity);
        Cct w0 = source.load(selection(0, 1, "a"));
        Cct w1 = source.load(selection(1, 2, "a"));
        assertThat(source.load(selection(0, 1, "a"))).isSameAs(w0); // now w1 is the least recently used
        Cct w2 = source.load(selection(2, 3, "a"));
        assertThat(source.cache().weight()).isLessThanOrEqualTo(capacity);
        assertThat(source.load(selection(2, 3, "a"))).isSameAs(w2);
        assertThat(source.load(selection(1, 2, "a"))).as("evicted").isNotSameAs(w1);
        assertThat(TreeCounts.of(source.load(selection(1, 2, "a")))).isEqualTo(TreeCounts.of(reference(1, 2, "a")));

        TreeSource tiny = settledAtOnce(weights[0] - 1); // no tree fits: nothing kept
        assertThat(tiny.load(selection(0, 1, "a"))).isNotSameAs(tiny.load(selection(0, 1, "a")));
        assertThat(tiny.cache().weight()).isZero();
    }

    /** Requests of several formats and shapes; each twice in another spelling (order, encoding). */
    static final List<String[]> QUERIES = List.of(
            new String[] {"format=columns&" + range(0, 3), range(0, 3) + "&format=columns"},
            new String[] {range(0, 3), range(0, 3).replace("service=", "servic%65=")},
            new String[] {"format=collapsed&maxDepth=3&" + range(0, 3), range(0, 3) + "&maxDepth=3&format=collapsed"},
            new String[] {"minShare=0.2&format=json&" + range(0, 3), "format=json&minShare=0.2&" + range(0, 3)},
            new String[] {"thread=main&format=columns&" + range(0, 3), range(0, 3) + "&format=columns&thread=main"});

    @Test
    void keptAnswersAreByteForByteTheUncachedOnesAndANewOrRewrittenWindowGivesTheNewAnswer() {
        writeWindow("a", 0);
        writeWindow("b", 1);
        TreeEndpoint cached = endpoint(TreeEndpoint.DEFAULT_ANSWER_BYTES);
        TreeEndpoint uncached = endpoint(0);
        awaitSettled();
        assertAnswersMatch(cached, uncached);
        assertThat(cached.answers().size()).isEqualTo(QUERIES.size());
        assertThat(uncached.answers().size()).isZero();

        byte[] before = rendered(cached, QUERIES.get(0)[0]);
        writeWindow("b", 2); // a new window in the range
        assertThat(rendered(cached, QUERIES.get(0)[0])).isEqualTo(rendered(uncached, QUERIES.get(0)[0]))
                .isNotEqualTo(before);
        awaitSettled();
        assertAnswersMatch(cached, uncached);
        writeWindow("a", 0); // a late batch rewrites a window read before
        awaitSettled();
        assertAnswersMatch(cached, uncached);
        assertThat(cached.answers().size()).isEqualTo(3 * QUERIES.size());
    }

    @Test
    void taskAnswersAreKeptUntilTheTaskLabelsChange() {
        writeWindow("a", 0);
        writeWindow("b", 1);
        Cct tree = reference(0, 3, "a", "b");
        List<Long> roots = new ArrayList<>();
        for (int i = 1; i < tree.size() && roots.size() < 2; i++) {
            if (tree.depth(i) == 2) {
                roots.add(tree.id(i));
            }
        }
        assertThat(roots).as("two nodes to label").hasSize(2);
        writer.writeNodeTasks(List.of(new NodeTasks(SERVICE, roots.get(0), List.of("checkout"))));
        TreeEndpoint cached = endpoint(TreeEndpoint.DEFAULT_ANSWER_BYTES);
        TreeEndpoint uncached = endpoint(0);
        awaitSettled();
        String q = "task=checkout&format=columns&" + range(0, 3);
        Object first = cached.handle(new QueryParams(q));
        assertThat(((JsonHandler.Prerendered) first).bytes()).isEqualTo(rendered(uncached, q));
        assertThat(cached.handle(new QueryParams(q))).as("kept").isSameAs(first);

        // the samples job labels another root of the task: the new answer
        writer.writeNodeTasks(List.of(new NodeTasks(SERVICE, roots.get(1), List.of("checkout"))));
        Object relabelled = cached.handle(new QueryParams(q));
        assertThat(relabelled).isNotSameAs(first);
        assertThat(((JsonHandler.Prerendered) relabelled).bytes()).isEqualTo(rendered(uncached, q))
                .isNotEqualTo(((JsonHandler.Prerendered) first).bytes());
        assertThat(cached.handle(new QueryParams(q))).as("kept again").isSameAs(relabelled);
    }

    /** Each query answered by both endpoints alike, and the cached answer of its other spelling the same object. */
    private static void assertAnswersMatch(TreeEndpoint cached, TreeEndpoint uncached) {
        for (String[] q : QUERIES) {
            JsonHandler.Prerendered first = (JsonHandler.Prerendered) cached.handle(new QueryParams(q[0]));
            assertThat(first.bytes()).as(q[0]).isEqualTo(rendered(uncached, q[0]));
            assertThat(gunzip(first.gzipped())).as("kept gzipped: " + q[0]).isEqualTo(first.bytes());
            assertThat(cached.handle(new QueryParams(q[1]))).as(q[1]).isSameAs(first);
        }
    }

    private static byte[] gunzip(byte[] gzipped) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void errorsAreNotKeptAndTheAnswersStayWithinTheirBytes() {
        writeWindow("a", 0);
        writeWindow("a", 1);
        TreeEndpoint probe = endpoint(TreeEndpoint.DEFAULT_ANSWER_BYTES);
        awaitSettled();
        assertThatThrownBy(() -> probe.handle(new QueryParams("node=12345&" + range(0, 2))))
                .isInstanceOf(ApiException.class);
        assertThat(probe.answers().size()).as("an error is never kept").isZero();
        String[] q = {"format=columns&" + range(0, 2), "format=json&" + range(0, 2), "format=collapsed&" + range(0, 2)};
        long[] weights = new long[3];
        for (int k = 0; k < 3; k++) {
            long before = probe.answers().weight();
            probe.handle(new QueryParams(q[k]));
            weights[k] = probe.answers().weight() - before;
        }
        long capacity = Math.max(weights[0] + weights[1], Math.max(weights[1] + weights[2], weights[0] + weights[2]));
        TreeEndpoint endpoint = endpoint(capacity);
        Object a0 = endpoint.handle(new QueryParams(q[0]));
        Object a1 = endpoint.handle(new QueryParams(q[1]));
        assertThat(endpoint.handle(new QueryParams(q[0]))).isSameAs(a0); // now q[1] is the least recently used
        Object a2 = endpoint.handle(new QueryParams(q[2]));
        assertThat(endpoint.answers().weight()).isLessThanOrEqualTo(capacity);
        assertThat(endpoint.handle(new QueryParams(q[2]))).isSameAs(a2);
        Object again = endpoint.handle(new QueryParams(q[1]));
        assertThat(again).as("evicted").isNotSameAs(a1);
        assertThat(((JsonHandler.Prerendered) again).bytes()).isEqualTo(rendered(endpoint(0), q[1]));

        TreeEndpoint tiny = endpoint(weights[0] - 1); // no answer fits: nothing kept
        assertThat(tiny.handle(new QueryParams(q[0]))).isNotSameAs(tiny.handle(new QueryParams(q[0])));
        assertThat(tiny.answers().weight()).isZero();
    }

    private static TreeEndpoint endpoint(long answerBytes) {
        CatalogueReader catalogue = new CatalogueReader(driver, "");
        TopologyReader topology = new TopologyReader(driver, "");
        TreeSource trees = settledAtOnce(TreeSource.DEFAULT_TREE_WEIGHT);
        return new TreeEndpoint(catalogue, topology, trees, new MigratedAnswers(catalogue, trees), answerBytes);
    }

    /** The bytes the endpoint's answer to this query is sent as. */
    private static byte[] rendered(TreeEndpoint endpoint, String query) {
        return JsonHandler.prerender(endpoint.handle(new QueryParams(query))).bytes();
    }

    private static String range(int from, int to) {
        return "service=" + SERVICE + "&version=v1&from=" + Instant.ofEpochMilli(T0 + from * WINDOW) + "&to="
                + Instant.ofEpochMilli(T0 + to * WINDOW);
    }

    private static long sum(long[] a, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += a[i];
        }
        return s;
    }

    /** A source whose window cache calls every version settled once the database clock passed it. */
    private static TreeSource settledAtOnce(long treeCacheWeight) {
        return new TreeSource(new WindowReader(driver, "", new WindowCache(1_000_000, 0)),
                new TopologyReader(driver, ""), LIMITS, treeCacheWeight);
    }

    /** Waits (on the database clock, with a deadline) until everything written so far is settled at settle time 0. */
    private static void awaitSettled() {
        WindowReader clock = new WindowReader(driver, "");
        long written = clock.databaseTimeMillis();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (clock.databaseTimeMillis() <= written) {
            assertThat(System.nanoTime()).as("the database clock moves on").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    /** Writes (or rewrites, adding samples) one window of an instance: random stacks over few methods. */
    private void writeWindow(String instance, int window) {
        List<Object[]> mine = stacks.computeIfAbsent(instance, k -> new LinkedHashMap<>())
                .computeIfAbsent(T0 + window * WINDOW, k -> new ArrayList<>());
        for (int s = 0; s < 4 + random.nextInt(8); s++) {
            int depth = 1 + random.nextInt(5);
            long[] methods = new long[depth];
            int[] lines = new int[depth];
            for (int d = 0; d < depth; d++) {
                methods[d] = METHODS.get(d == 0 ? 0 : random.nextInt(METHODS.size())).id();
                lines[d] = d == 0 ? 0 : 10 + random.nextInt(3);
            }
            mine.add(new Object[] {methods, lines, THREADS[random.nextInt(THREADS.length)], 1L + random.nextInt(9)});
        }
        Cct tree = new Cct();
        add(tree, mine);
        for (int i = 1; i < tree.size(); i++) {
            int rp = tree.recursiveParent(i);
            nodes.putIfAbsent(tree.id(i), new NodeRecord(tree.id(i), tree.id(tree.parent(i)), tree.method(i),
                    tree.callSiteLine(i), tree.depth(i), rp < 0 ? NodeRecord.NO_RECURSIVE_PARENT : tree.id(rp)));
        }
        writer.writeNodes(new ArrayList<>(nodes.values()));
        long start = T0 + window * WINDOW;
        writer.writeWindowCounts(List.of(new WindowCounts(execution(instance), start, start + WINDOW,
                TreeCounts.of(tree))));
    }

    /** cct-core's tree of the stacks written for these instances in windows [from, to) (window numbers). */
    private Cct reference(int from, int to, String... instances) {
        Cct tree = new Cct();
        for (String i : instances) {
            stacks.getOrDefault(i, Map.of()).forEach((start, list) -> {
                if (start >= T0 + from * WINDOW && start < T0 + to * WINDOW) {
                    add(tree, list);
                }
            });
        }
        return tree;
    }

    private static void add(Cct tree, List<Object[]> list) {
        for (Object[] s : list) {
            long[] methods = (long[]) s[0];
            tree.addStack(methods, (int[]) s[1], methods.length, tree.thread((String) s[2]), (Long) s[3]);
        }
    }

    private static String execution(String instance) {
        return new ExecutionId(SERVICE, "v1", instance).key();
    }

    private static List<InstanceRecord> instances(String... ids) {
        List<InstanceRecord> out = new ArrayList<>();
        for (String i : ids) {
            out.add(new InstanceRecord(SERVICE, "v1", i, "host-" + i, 1, T0, Map.of(), T0, T0 + 10 * WINDOW));
        }
        return out;
    }

    private static Selection selection(int from, int to, String... instances) {
        return new Selection(SERVICE, "v1", instances(instances), Instant.ofEpochMilli(T0 + from * WINDOW),
                Instant.ofEpochMilli(T0 + to * WINDOW));
    }
}
