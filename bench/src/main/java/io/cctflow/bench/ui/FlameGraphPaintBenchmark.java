package io.cctflow.bench.ui;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.WindowCounts;
import io.cctflow.query.QueryService;
import io.cctflow.query.QueryServiceConfig;
import io.cctflow.servers.Chromium;
import io.cctflow.servers.Neo4jServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.neo4j.driver.Driver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Navigation to the first complete paint of a 100,000-node flame graph, and of a zoom, in Debian's
 * headless Chromium: the query service's web UI (API call included) side by side with
 * async-profiler's HTML flame graph of the same tree (its {@code jfr-converter} turns the UI's own
 * collapsed-stacks export into one self-contained page), median of 5 each, in one run.
 *
 * <p>The runs start once the written window is settled (a minute old), as any range but the last
 * minute is: the service's caches keep only settled windows. The first API call, made before, is
 * reported apart (nothing cached).
 *
 * <p>A complete paint is the first task after the animation frame that drew the canvas (the UI
 * logs it in {@code window.cctflowPaints}; for async-profiler's page, which draws while it loads,
 * a script added before the page marks the task after the first frame following {@code load}).
 * A zoom is timed from the click event to the task after the frame it drew in.
 */
public final class FlameGraphPaintBenchmark {
    static final String SERVICE = "bench-ui";
    static final int RUNS = 5;
    static final long T0 = 1_764_000_000_000L;
    /** Marks, in the page's own clock, the first complete paint after load, and each click's next paint. */
    static final String HARNESS = "window.__marks = {};"
            + "addEventListener('load', () => requestAnimationFrame(() => setTimeout(() => { __marks.loaded = performance.now(); })));"
            + "addEventListener('click', e => { const t = e.timeStamp; requestAnimationFrame(() => setTimeout(() => { __marks.zoom = performance.now() - t; })); }, true);";

    /** Clicks the widest frame below the root of the UI's flame graph; its index in {@code __target}. */
    static final String CLICK_WIDEST = "const f = App.views.flame.flat, g = App.views.flame.graph, L = g.layout();"
            + "let best = f.rows[1][0]; for (const i of f.rows[1]) if (f.w[i] > f.w[best]) best = i;"
            + "const r = g.canvas.getBoundingClientRect(); window.__target = best; window.__clickAt = performance.now();"
            + "g.canvas.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: r.left + (f.x[best] + f.w[best] / 2 - L.x0) * L.scale,"
            + " clientY: r.top + g.rowY(L, 1) + 9 }));";

    private FlameGraphPaintBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        Path home = Files.createTempDirectory("cctflow-ui-bench");
        try (Neo4jServer neo4j = Neo4jServer.start(home.resolve("neo4j"))) {
            GraphStoreConfig graph = GraphStoreConfig.unauthenticated(neo4j.boltUri());
            int written;
            try (Driver driver = graph.openDriver()) {
                written = writeTree(driver, nodes, new Random(20261127));
            }
            long writtenAt = System.currentTimeMillis(); // the embedded database's clock is this machine's
            try (QueryService api = QueryService.start(QueryServiceConfig.defaults().with(Map.of(
                    QueryServiceConfig.PORT, "0", QueryServiceConfig.NEO4J_URI, neo4j.boltUri(),
                    QueryServiceConfig.BOOTSTRAP_SERVERS, "127.0.0.1:1", QueryServiceConfig.ROLLUP_INTERVAL, "0")))) {
                String base = "http://127.0.0.1:" + api.port();
                Path html = asyncProfilerPage(base, home);
                // the first request reads the window from Neo4j and rebuilds the tree: nothing is
                // cached yet, and windows written within the last minute never are
                double first = timeGet(base + "/api/v1/tree?service=" + SERVICE + "&format=columns");
                awaitSettled(writtenAt);
                timeGet(base + "/api/v1/tree?service=" + SERVICE + "&format=columns"); // read once more, settled
                run(base, html, written, first);
            }
        }
        System.exit(0); // the embedded Neo4j leaves non-daemon threads
    }

    /** A random tree of about {@code target} nodes over 2,000 methods (some recursion), written as one window. */
    static int writeTree(Driver driver, int target, Random random) {
        List<MethodRecord> methods = new ArrayList<>();
        for (int m = 0; m < 2_000; m++) {
            methods.add(MethodRecord.of("com.bench.p" + (m % 40) + ".Class" + (m / 40), "method" + (m % 7), "()V"));
        }
        Cct tree = new Cct(target + 1);
        List<Integer> all = new ArrayList<>(List.of(Cct.ROOT));
        while (tree.size() <= target) {
            // a new child of a random node, biased towards recent (deeper) nodes for realistic depth
            int parent = all.get(Math.max(0, all.size() - 1 - (int) Math.abs(random.nextGaussian() * all.size() / 3)));
            if (tree.depth(parent) >= 60) {
                continue;
            }
            int child = tree.child(parent, methods.get(random.nextInt(methods.size())).id(), 1 + random.nextInt(300));
            if (child == all.size()) {
                all.add(child);
            }
        }
        long[] self = new long[tree.size()];
        long[] total = new long[tree.size()];
        for (int i = 1; i < tree.size(); i++) {
            self[i] = 1 + random.nextInt(20);
        }
        for (int i = tree.size() - 1; i >= 1; i--) { // children have larger indexes than their parents
            total[i] += self[i];
            total[tree.parent(i)] += total[i];
        }
        total[Cct.ROOT] += self[Cct.ROOT];
        for (int i = 0; i < tree.size(); i++) {
            tree.addCounts(i, self[i], total[i]);
        }
        String execution = new ExecutionId(SERVICE, "v1", "i-1").key();
        List<NodeRecord> records = new ArrayList<>();
        for (int i = 1; i < tree.size(); i++) {
            int rp = tree.recursiveParent(i);
            records.add(new NodeRecord(tree.id(i), tree.id(tree.parent(i)), tree.method(i), tree.callSiteLine(i),
                    tree.depth(i), rp < 0 ? NodeRecord.NO_RECURSIVE_PARENT : tree.id(rp)));
        }
        GraphSchema.ensure(driver, "");
        GraphWriter writer = new GraphWriter(driver, "");
        writer.writeMethods(methods);
        writer.writeInstances(List.of(new InstanceRecord(SERVICE, "v1", "i-1", "bench", 1, T0, Map.of(), T0, T0 + 60_000)));
        writer.writeNodes(records);
        writer.writeWindowCounts(List.of(new WindowCounts(execution, T0, T0 + 60_000, TreeCounts.of(tree))));
        return tree.size() - 1;
    }

    /**
     * Waits until the window written at {@code writtenAt} is settled ({@link WindowReader#WRITE_MARGIN_MILLIS}
     * and a second more): what the service's caches keep, as for any range that is not the last minute.
     */
    static void awaitSettled(long writtenAt) throws InterruptedException {
        long wait = writtenAt + WindowReader.WRITE_MARGIN_MILLIS + 1_000 - System.currentTimeMillis();
        if (wait > 0) {
            System.out.printf("waiting %.0f s until the window is settled (written over a minute ago)%n", wait / 1e3);
            Thread.sleep(wait);
        }
    }

    /** async-profiler's page of the UI's collapsed-stacks export, by its jfr-converter in a child JVM. */
    static Path asyncProfilerPage(String base, Path dir) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(base + "/api/v1/tree?service=" + SERVICE + "&format=collapsed")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("collapsed export: " + r.statusCode() + " " + r.body());
        }
        Path collapsed = dir.resolve("tree.collapsed");
        Files.writeString(collapsed, r.body());
        Path html = dir.resolve("async-profiler.html");
        Path jar = Path.of(Class.forName("Main").getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                jar.toString(), collapsed.toString(), html.toString()).inheritIO().start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("jfr-converter failed on " + collapsed);
        }
        return html;
    }

    /** @param firstApiCall milliseconds of the first {@code format=columns} call, before anything was cached */
    static void run(String base, Path apHtml, int nodes, double firstApiCall) throws Exception {
        try (Chromium browser = new Chromium(1600, 1000)) {
            ChromeDriver chrome = browser.driver();
            chrome.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", HARNESS));
            WebDriverWait wait = new WebDriverWait(chrome, Duration.ofSeconds(60));
            double[] oursLoad = new double[RUNS], oursFetch = new double[RUNS], oursLayout = new double[RUNS];
            double[] oursZoom = new double[RUNS], oursRequery = new double[RUNS];
            double[] oursDraw = new double[RUNS], oursZoomDraw = new double[RUNS];
            double[] oursScripts = new double[RUNS], oursSent = new double[RUNS], oursToDraw = new double[RUNS];
            double[] oursRaster = new double[RUNS], oursHeaders = new double[RUNS], oursBody = new double[RUNS];
            double[] oursParse = new double[RUNS], oursHtml = new double[RUNS];
            double[] apLoad = new double[RUNS], apZoom = new double[RUNS];
            double[] apiColumns = new double[RUNS], apiJson = new double[RUNS];
            for (int k = 0; k < RUNS; k++) {
                // ours: navigation -> API call -> complete paint of every node
                chrome.get(base + "/?service=" + SERVICE);
                wait.until(d -> chrome.executeScript("return (window.cctflowPaints || []).some(p => p.canvas === 'flame')"));
                Map<?, ?> first = (Map<?, ?>) chrome.executeScript("return window.cctflowPaints.find(p => p.canvas === 'flame')");
                oursLoad[k] = ((Number) first.get("at")).doubleValue();
                oursDraw[k] = orNaN(first.get("drawMs"));
                check(((Number) first.get("nodes")).intValue() == nodes + 1, "the UI drew " + first.get("nodes") + " nodes");
                Map<?, ?> timing = (Map<?, ?>) chrome.executeScript("return window.cctflowTimings[0]");
                oursFetch[k] = ((Number) timing.get("received")).doubleValue() - ((Number) timing.get("start")).doubleValue();
                oursLayout[k] = ((Number) timing.get("laidOut")).doubleValue() - ((Number) timing.get("received")).doubleValue();
                // where the rest goes: the page's scripts, the request's start, the wait for the frame, the raster
                oursHtml[k] = ((Number) chrome.executeScript("return performance.getEntriesByType('navigation')[0].responseEnd")).doubleValue();
                oursScripts[k] = ((Number) chrome.executeScript("return performance.getEntriesByType('navigation')[0].domInteractive")).doubleValue();
                oursSent[k] = ((Number) timing.get("start")).doubleValue();
                double drawAt = orNaN(first.get("drawAt"));
                oursToDraw[k] = drawAt - ((Number) timing.get("laidOut")).doubleValue();
                oursRaster[k] = oursLoad[k] - drawAt - oursDraw[k];
                oursHeaders[k] = orNaN(timing.get("headers")) - ((Number) timing.get("start")).doubleValue();
                oursBody[k] = orNaN(timing.get("body")) - orNaN(timing.get("headers"));
                oursParse[k] = orNaN(timing.get("parsed")) - orNaN(timing.get("body"));
                // zoom: click the widest frame below the root; the tree held is complete, so no re-query
                chrome.executeScript(CLICK_WIDEST);
                wait.until(d -> chrome.executeScript("return __marks.zoom !== undefined"));
                oursZoom[k] = ((Number) chrome.executeScript("return __marks.zoom")).doubleValue();
                wait.until(d -> chrome.executeScript("return location.search.includes('node=') && App.views.flame.focus() === window.__target"));
                oursZoomDraw[k] = orNaN(chrome.executeScript("return window.cctflowPaints.filter(p => p.canvas === 'flame'"
                        + " && p.focus === window.__target)[0].drawMs"));
                check(((Number) chrome.executeScript("return window.cctflowTimings.length")).intValue() == 1,
                        "a zoom into a complete subtree re-queried the API");

                // a zoom that must be re-queried: the tree pruned at 0.05 % (minShare in the URL)
                chrome.get(base + "/?service=" + SERVICE + "&minShare=0.0005");
                wait.until(d -> chrome.executeScript("return (window.cctflowPaints || []).some(p => p.canvas === 'flame')"));
                chrome.executeScript(CLICK_WIDEST);
                wait.until(d -> chrome.executeScript("return location.search.includes('node=') && (window.cctflowTimings || []).length >= 2"
                        + " && window.cctflowPaints.filter(p => p.canvas === 'flame' && p.at > window.cctflowTimings[1].laidOut).length > 0"));
                oursRequery[k] = ((Number) chrome.executeScript("const t = window.cctflowTimings[1];"
                        + "return window.cctflowPaints.find(p => p.canvas === 'flame' && p.at > t.laidOut).at - window.__clickAt")).doubleValue();

                // the API call alone, from Java (no gzip): compact and nested forms
                apiColumns[k] = timeGet(base + "/api/v1/tree?service=" + SERVICE + "&format=columns");
                apiJson[k] = timeGet(base + "/api/v1/tree?service=" + SERVICE);

                // async-profiler: navigation -> complete paint, then a click on the widest frame above its root
                chrome.get(apHtml.toUri().toString());
                wait.until(d -> chrome.executeScript("return __marks.loaded !== undefined"));
                apLoad[k] = ((Number) chrome.executeScript("return __marks.loaded")).doubleValue();
                chrome.executeScript("const c = document.getElementById('canvas'), r = c.getBoundingClientRect();"
                        + "window.scrollTo(0, document.body.scrollHeight);"
                        + "const y = c.getBoundingClientRect().bottom - 16 * 1.5;"
                        + "c.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, clientX: r.left + 40, clientY: y }));"
                        + "c.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: r.left + 40, clientY: y }));");
                wait.until(d -> chrome.executeScript("return __marks.zoom !== undefined"));
                apZoom[k] = ((Number) chrome.executeScript("return __marks.zoom")).doubleValue();
            }
            System.out.printf("flame graph of %,d nodes, Chromium %s, median of %d (all runs in ms)%n", nodes,
                    chrome.getCapabilities().getBrowserVersion(), RUNS);
            report("cctflow UI: navigation -> complete paint (API call included)", oursLoad);
            report("  navigation -> the HTML received (responseEnd)", oursHtml);
            report("  navigation -> HTML parsed, scripts run (domInteractive)", oursScripts);
            report("  navigation -> the tree request sent", oursSent);
            report("  of which the tree request in the page (fetch + parse)", oursFetch);
            report("    until its answer's headers arrive (the server's part)", oursHeaders);
            report("    then its body (transfer, gunzip)", oursBody);
            report("    then JSON.parse", oursParse);
            report("  of which the layout of the columns", oursLayout);
            report("  laid out -> draw() starts (the animation frame)", oursToDraw);
            report("  of which draw() of the first paint (the script's part)", oursDraw);
            report("  draw() done -> painted (raster, compositing)", oursRaster);
            report("cctflow UI: click -> zoomed paint", oursZoom);
            report("  of which draw() of the zoom (the script's part)", oursZoomDraw);
            report("cctflow UI: click -> re-queried subtree painted (pruned tree)", oursRequery);
            report("API alone: /api/v1/tree?format=columns (Java client)", apiColumns);
            report("API alone: /api/v1/tree (nested JSON, Java client)", apiJson);
            System.out.printf("  %-58s        %6.0f ms%n", "API alone: the first format=columns call (nothing cached)", firstApiCall);
            report("async-profiler HTML: navigation -> complete paint", apLoad);
            report("async-profiler HTML: click -> zoomed paint", apZoom);
        }
    }

    /** Milliseconds of one GET, the whole body read; fails on anything but 200. */
    static double timeGet(String url) throws Exception {
        long t = System.nanoTime();
        HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        double ms = (System.nanoTime() - t) / 1e6;
        check(r.statusCode() == 200, url + ": " + r.statusCode());
        return ms;
    }

    /** A number the page logged, or NaN when it logs none (an older UI). */
    static double orNaN(Object value) {
        return value instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what);
        }
    }

    static void report(String what, double[] runs) {
        double[] sorted = runs.clone();
        Arrays.sort(sorted);
        StringBuilder all = new StringBuilder();
        for (double r : runs) {
            all.append(all.length() == 0 ? "" : ", ").append(Math.round(r));
        }
        System.out.printf("  %-58s median %6.0f ms   [%s]%n", what, sorted[RUNS / 2], all);
    }
}
