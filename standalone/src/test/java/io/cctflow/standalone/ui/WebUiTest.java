package io.cctflow.standalone.ui;

import static io.cctflow.standalone.ui.UiWorkloads.A_WORK;
import static io.cctflow.standalone.ui.UiWorkloads.B_WORK;
import static io.cctflow.standalone.ui.UiWorkloads.FIB;
import static io.cctflow.standalone.ui.UiWorkloads.OTHER;
import static io.cctflow.standalone.ui.UiWorkloads.SERVICE;
import static io.cctflow.standalone.ui.UiWorkloads.SPEND;
import static io.cctflow.standalone.ui.UiWorkloads.V1;
import static io.cctflow.standalone.ui.UiWorkloads.V2;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cctflow.query.QueryService;
import io.cctflow.query.QueryServiceConfig;
import io.cctflow.servers.Chromium;
import io.cctflow.servers.TestServers;
import io.cctflow.standalone.e2e.PipelineRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;

/**
 * The web UI in a real headless Chromium (Debian's) against a real query service, with a bearer
 * token, over Neo4j data the pipeline wrote from agent runs of workloads whose split is known
 * ({@link UiWorkloads}, one pipeline run for every scenario): the frames drawn are the workload's
 * methods, and every number checked is the API's answer to the same question. Screenshots of each
 * view go to {@code target/ui-screenshots/} and must not be blank.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class WebUiTest {
    static final String TOKEN = "s3cret-ui-token";
    /** Reads too; task definitions need it (auth.write-token). The user of the test enters this one. */
    static final String WRITE_TOKEN = "s3cret-ui-write-token";
    static final Path SHOTS = Path.of("target", "ui-screenshots");
    /** The prefix of the task created in the UI: {@code A.work}'s class. */
    static final String TASK_PREFIX = A_WORK.substring(0, A_WORK.lastIndexOf('.') + 1);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static PipelineRun pipeline;
    private static QueryService service;
    private static Chromium browser;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        pipeline = UiWorkloads.run();
        service = QueryService.start(QueryServiceConfig.defaults().with(Map.of(
                QueryServiceConfig.PORT, "0", QueryServiceConfig.NEO4J_URI, TestServers.get().neo4jUri(),
                QueryServiceConfig.BOOTSTRAP_SERVERS, TestServers.get().kafkaBootstrapServers(),
                QueryServiceConfig.ROLLUP_INTERVAL, "0", QueryServiceConfig.AUTH_TOKEN, TOKEN,
                QueryServiceConfig.AUTH_WRITE_TOKEN, WRITE_TOKEN)));
        base = "http://127.0.0.1:" + service.port();
        browser = new Chromium(1440, 1000);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (service != null) {
            service.close();
        }
    }

    static String n(long v) {
        return String.format(Locale.US, "%,d", v);
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** The UI's short name of a signature: simple class name and method ({@code Flame.splitName}). */
    static String simple(String signature) {
        String name = signature.substring(0, signature.indexOf('('));
        String cls = name.substring(0, name.lastIndexOf('.'));
        return cls.substring(cls.lastIndexOf('.') + 1) + name.substring(name.lastIndexOf('.'));
    }

    /** Waits up to 30 s for a condition, naming it on time-out. */
    static <T> T until(String what, Function<WebDriver, T> condition) {
        return browser.until(what, 30, condition);
    }

    /** Opens a view and waits for its render to complete. */
    static void open(String query) {
        browser.driver().get(base + "/?" + query);
        until("rendered " + query, d -> browser.js("return document.body.dataset.rendered") != null);
    }

    static String text(String id) {
        return browser.driver().findElement(By.id(id)).getText();
    }

    static void screenshot(String name) {
        assertThat(browser.screenshot(SHOTS.resolve(name + ".png"))).as("distinct colours in " + name).isGreaterThan(40);
    }

    static JsonNode api(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + TOKEN)
                .build();
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The API's whole tree (nested form) of a selection, e.g. {@code at=ui-shop@v1}. */
    static JsonNode tree(String selection) {
        return api("/api/v1/tree?" + selection).get("root");
    }

    /** The nodes of a nested tree, depth first, each with its parent (null for the root). */
    static List<JsonNode[]> nodes(JsonNode root) {
        List<JsonNode[]> out = new ArrayList<>();
        Deque<JsonNode[]> stack = new ArrayDeque<>();
        stack.push(new JsonNode[] {root, null});
        while (!stack.isEmpty()) {
            JsonNode[] e = stack.pop();
            out.add(e);
            e[0].get("children").forEach(c -> stack.push(new JsonNode[] {c, e[0]}));
        }
        return out;
    }

    /** The one node of a method in a tree, with its parent; the workload calls {@code A.work} from one place. */
    static JsonNode[] only(JsonNode root, String method) {
        List<JsonNode[]> found = nodes(root).stream().filter(e -> e[0].get("method").asText().equals(method)).toList();
        assertThat(found).as("nodes of " + method).hasSize(1);
        return found.get(0);
    }

    static long methodSamples(String selection, String method) {
        return api("/api/v1/metrics/method?" + selection + "&method=" + enc(method)).get("methodSamples").asLong();
    }

    /** The centre of the first drawn frame of a method, relative to the canvas centre (Selenium's offsets). */
    @SuppressWarnings("unchecked")
    static List<Long> frameOffset(String canvas, String view, String method) {
        return (List<Long>) browser.js("const v = App.views[arguments[0]], f = v.flat, g = v.graph;"
                + "const L = g.layout();"
                + "let k = -1; for (let j = 0; j < f.n; j++) if (f.names[f.name[j]] === arguments[1]) { k = j; break; }"
                + "const x = (f.x[k] - L.x0) * L.scale + f.w[k] * L.scale / 2, y = g.rowY(L, f.depth[k]) + Flame.ROW / 2;"
                + "const c = document.getElementById(arguments[2]);"
                + "return [Math.round(x - c.clientWidth / 2), Math.round(y - c.clientHeight / 2)];", view, method, canvas);
    }

    static void moveTo(List<Long> at) {
        new Actions(browser.driver()).moveToElement(browser.driver().findElement(By.id("flame")), at.get(0).intValue(),
                at.get(1).intValue()).perform();
    }

    static void clickAt(List<Long> at) {
        new Actions(browser.driver()).moveToElement(browser.driver().findElement(By.id("flame")), at.get(0).intValue(),
                at.get(1).intValue()).click().perform();
    }

    /** The API requests the page made so far whose path starts with {@code prefix}. */
    @SuppressWarnings("unchecked")
    static List<String> requests(String prefix) {
        return (List<String>) browser.js("return performance.getEntriesByType('resource').map(e => e.name)"
                + ".filter(n => new URL(n).pathname.startsWith(arguments[0]))", prefix);
    }

    @Test
    @Order(1)
    void asksForTheTokenThenSelectsAService() {
        browser.driver().get(base + "/");
        until("the token dialog", d -> d.findElement(By.id("token-dialog")).isDisplayed());
        browser.driver().findElement(By.id("token-input")).sendKeys(TOKEN); // the read token: writes ask again
        browser.driver().findElement(By.cssSelector("#token-form button")).click();
        until("the first service's flame graph", d -> browser.js("return document.getElementById('flame').dataset.drawn") != null);
        Select services = new Select(browser.driver().findElement(By.id("service")));
        assertThat(services.getOptions()).extracting(WebElement::getText).containsExactly(OTHER, SERVICE);
        services.selectByVisibleText(SERVICE);
        long all = tree("service=" + SERVICE).get("total").asLong();
        assertThat(all).isEqualTo(api("/api/v1/tree?service=" + SERVICE).get("totalSamples").asLong()).isPositive();
        until("the shop's whole tree", d -> Long.valueOf(all).equals(browser.js(
                "return S.service === arguments[0] && App.views.flame.flat ? App.views.flame.flat.w[0] : -1", SERVICE)));
        assertThat(browser.driver().getCurrentUrl()).contains("service=" + SERVICE);
        // the timeline is requested after the flame graph's tree
        until("the shop's timeline", d -> text("timeline-legend").startsWith(n(all) + " samples"));
    }

    @Test
    @Order(2)
    void flameGraphDrawsTheWorkloadsFramesAndHoverShowsTheirNumbers() {
        String v1 = "at=" + SERVICE + "@" + V1;
        JsonNode root = tree(v1);
        open("service=" + SERVICE + "&version=" + V1);
        until("v1 drawn", d -> Long.valueOf(root.get("total").asLong()).equals(browser.js("return App.views.flame.flat.w[0]")));
        @SuppressWarnings("unchecked")
        Set<String> drawn = new TreeSet<>((List<String>) browser.js("return App.views.flame.flat.names"));
        Set<String> api = new TreeSet<>();
        nodes(root).forEach(e -> api.add(e[0].get("method").asText()));
        assertThat(drawn).isEqualTo(api);
        // the workload's own frames, each as wide as the API's method samples (none of them recurses)
        assertThat(drawn).contains(SPEND, FIB).containsAll(UiWorkloads.WORKS);
        for (String work : UiWorkloads.WORKS) {
            assertThat(browser.js("const f = App.views.flame.flat; let w = 0;"
                    + "for (let i = 0; i < f.n; i++) if (f.names[f.name[i]] === arguments[0]) w += f.w[i]; return w", work))
                    .as("width of " + work).isEqualTo(methodSamples(v1, work));
        }

        JsonNode[] aWork = only(root, A_WORK);
        moveTo(frameOffset("flame", "flame", A_WORK));
        String tip = until("the tooltip", d -> d.findElement(By.id("tooltip")).isDisplayed()
                ? d.findElement(By.id("tooltip")).getText() : null);
        assertThat(tip).contains(A_WORK).contains(n(aWork[0].get("total").asLong()) + " of " + n(root.get("total").asLong()))
                .contains("line " + aWork[0].get("line").asInt() + " of " + simple(aWork[1].get("method").asText()));
        screenshot("flame");
    }

    @Test
    @Order(3)
    void clickZoomsInTheTreeItHoldsAndEscResets() {
        JsonNode root = tree("at=" + SERVICE + "@" + V1);
        long aWork = only(root, A_WORK)[0].get("total").asLong();
        clickAt(frameOffset("flame", "flame", A_WORK));
        // the whole tree is held and nothing below A.work was pruned: zoomed without a request
        until("zoomed into A.work", d -> d.getCurrentUrl().contains("node=")
                && Long.valueOf(aWork).equals(browser.js("const v = App.views.flame, f = v.flat;"
                        + "return f.names[f.name[v.focus()]] === arguments[0] ? f.w[v.focus()] : -1", A_WORK)));
        assertThat(browser.js("return window.cctflowTimings.length")).as("tree requests").isEqualTo(1L);
        assertThat(text("crumbs")).contains(simple(A_WORK));
        screenshot("flame-zoomed");
        browser.driver().findElement(By.tagName("body")).sendKeys(Keys.ESCAPE);
        until("zoom reset", d -> !d.getCurrentUrl().contains("node=")
                && Long.valueOf(0).equals(browser.js("return App.views.flame.focus()")));
        assertThat(browser.js("return App.views.flame.flat.w[0]")).isEqualTo(root.get("total").asLong());
    }

    @Test
    @Order(4)
    void clickOnAPrunedSubtreeRequeriesIt() {
        String v1 = "at=" + SERVICE + "@" + V1;
        JsonNode root = tree(v1);
        JsonNode aWork = only(root, A_WORK)[0];
        // pruned just above the largest total below A.work of at most half A.work's: A.work stays,
        // that node does not; pruned relative to A.work (about a quarter of the root) it stays. A
        // fixed half of A.work's share pruned the same nodes both ways in one run of sampled data
        long a = aWork.get("total").asLong();
        long largestHalf = nodes(aWork).stream().skip(1).mapToLong(e -> e[0].get("total").asLong())
                .filter(t -> t <= a / 2).max().orElseThrow(() -> new AssertionError(
                        "no node below A.work with at most half its " + a + " samples"));
        String minShare = String.format(Locale.US, "%.8f", 1.25 * largestHalf / root.get("total").asDouble());
        int below = nodes(aWork).size();
        int belowPruned = nodes(only(tree(v1 + "&minShare=" + minShare), A_WORK)[0]).size();
        assertThat(belowPruned).as("pruning at " + minShare + " hides part of A.work's subtree").isLessThan(below);
        open("service=" + SERVICE + "&version=" + V1 + "&minShare=" + minShare);
        until("pruned tree", d -> Long.valueOf(belowPruned).equals(browser.js("const f = App.views.flame.flat;"
                + "const k = f.names.indexOf(arguments[0]); let i = 0; while (i < f.n && f.name[i] !== k) i++;"
                + "if (i === f.n) return -1;"
                + "let n = 1; for (let j = i + 1; j < f.n && f.depth[j] > f.depth[i]; j++) n++; return n", A_WORK)));
        clickAt(frameOffset("flame", "flame", A_WORK));
        // the subtree of A.work from the API, pruned relative to A.work itself: what pruning hid shows up
        int requeried = nodes(api("/api/v1/tree?" + v1 + "&node=" + aWork.get("id").asText() + "&minShare=" + minShare)
                .get("root")).size();
        assertThat(requeried).isGreaterThan(belowPruned);
        until("the subtree of A.work from the API", d -> d.getCurrentUrl().contains("node=")
                && Long.valueOf(requeried).equals(browser.js("const f = App.views.flame.flat;"
                        + "return f.names[f.name[0]] === arguments[0] ? f.n : -1", A_WORK)));
        assertThat(browser.js("return App.views.flame.flat.w[0]")).isEqualTo(aWork.get("total").asLong());
    }

    @Test
    @Order(5)
    void slashFocusesSearchWhichShowsRecursionAwareMethodTime() {
        String v1 = "at=" + SERVICE + "@" + V1;
        JsonNode root = tree(v1);
        long fibFrames = nodes(root).stream().filter(e -> e[0].get("method").asText().equals(FIB)).count();
        long fibSamples = methodSamples(v1, FIB);
        // recursion-aware: fewer than the frames' totals together, a sample counts once
        assertThat(fibSamples).isLessThan(nodes(root).stream().filter(e -> e[0].get("method").asText().equals(FIB))
                .mapToLong(e -> e[0].get("total").asLong()).sum());
        open("service=" + SERVICE + "&version=" + V1);
        browser.driver().findElement(By.tagName("body")).sendKeys("/");
        assertThat(browser.js("return document.activeElement.id")).isEqualTo("search");
        browser.driver().switchTo().activeElement().sendKeys(simple(FIB));
        String expected = fibFrames + " frames · method time " + n(fibSamples) + " of " + n(root.get("total").asLong())
                + " samples";
        String shown = until("the search result", d -> {
            String t = d.findElement(By.id("search-result")).getText();
            return t.contains("method time") ? t : null;
        });
        assertThat(shown).contains(expected);
        assertThat(browser.driver().getCurrentUrl()).contains("q=" + enc(simple(FIB)));
        screenshot("search");
    }

    @Test
    @Order(6)
    void methodViewShowsTheApisNumbersAndTheBaselineArrow() {
        open("service=" + SERVICE + "&version=" + V2 + "&view=method&method=" + enc(A_WORK));
        until("the method view", d -> !d.findElement(By.id("callers")).getText().isEmpty()
                && d.findElement(By.id("baseline")).isDisplayed());
        JsonNode m = api("/api/v1/metrics/method?at=" + SERVICE + "@" + V2 + "&method=" + enc(A_WORK));
        assertThat(text("method-time")).contains(n(m.get("methodSamples").asLong()) + " of "
                + n(m.get("totalSamples").asLong()) + " samples");
        assertThat(text("self-time")).contains(n(m.get("selfSamples").asLong()) + " of "
                + n(m.get("methodSamples").asLong()));
        JsonNode[] aWork = only(tree("at=" + SERVICE + "@" + V2), A_WORK);
        JsonNode caller = m.get("metrics").get(0).get("callers").get(0);
        assertThat(aWork[1].get("method").asText()).as("the caller in the tree").startsWith(caller.get("name").asText());
        assertThat(text("callers")).contains(caller.get("name").asText())
                .contains(n(caller.get("samples").asLong()) + " of " + n(m.get("methodSamples").asLong()))
                .contains(aWork[0].get("line").asText());
        JsonNode callee = m.get("metrics").get(0).get("callees").get(0);
        assertThat(SPEND).as("the callee").startsWith(callee.get("name").asText());
        JsonNode spend = only(aWork[0], SPEND)[0];
        assertThat(text("callees")).contains(callee.get("name").asText())
                .contains(n(callee.get("samples").asLong()) + " of " + n(m.get("methodSamples").asLong()))
                .contains(spend.get("line").asText());
        // v2 slows A.work down: its method time grew since v1, and the arrow says so
        JsonNode before = api("/api/v1/metrics/method?at=" + SERVICE + "@" + V1 + "&method=" + enc(A_WORK));
        assertThat(before.get("methodTime").asDouble()).isLessThan(m.get("methodTime").asDouble());
        assertThat(text("baseline")).contains("vs " + V1).contains("regression");
        screenshot("method");
    }

    @Test
    @Order(7)
    void comparesTwoDeployments() {
        open("service=" + SERVICE + "&view=compare&a=" + V1 + "&b=" + V2);
        until("the diff flame graph", d -> browser.js("return document.getElementById('diff-flame').dataset.drawn") != null);
        JsonNode r = api("/api/v1/compare?a.at=" + SERVICE + "@" + V1 + "&b.at=" + SERVICE + "@" + V2 + "&weight=self&top=50");
        assertThat(text("compare-summary")).contains(r.get("message").asText())
                .contains(String.format(Locale.US, "%.1f %%", r.get("score").asDouble()))
                .contains(n(r.get("commonTree").get("size").asLong()) + " nodes")
                .contains(n(r.get("a").get("samples").asLong()) + " → " + n(r.get("b").get("samples").asLong()));
        int rows = browser.driver().findElements(By.cssSelector("#differences tbody tr")).size();
        assertThat(rows).isEqualTo(Math.max(1, r.get("differences").size()));
        assertThat(r.get("differences").size()).as("the slowed A.work differs").isPositive();
        assertThat(text("differences")).contains(r.get("differences").get(0).get("method").asText());
        screenshot("compare");
    }

    @Test
    @Order(8)
    void comparesTwoInstancesAndTwoTimeRangesChosenPerSide() {
        // instance against instance: web-1 (v1) against web-3 (v2)
        open("service=" + SERVICE + "&view=compare&a=" + V1 + "&a.instance=web-1&b=" + V2 + "&b.instance=web-3");
        until("the instance comparison", d -> text("compare-summary").contains("web-3"));
        JsonNode r = api("/api/v1/compare?a.at=" + SERVICE + "@" + V1 + "&a.instance=web-1&b.at=" + SERVICE + "@" + V2
                + "&b.instance=web-3&weight=self&top=50");
        assertThat(r.get("a").get("samples").asLong()).isEqualTo(
                api("/api/v1/tree?at=" + SERVICE + "@" + V1 + "&instance=web-1").get("totalSamples").asLong());
        assertThat(text("compare-summary")).contains(n(r.get("a").get("samples").asLong()) + " → "
                + n(r.get("b").get("samples").asLong()));
        assertThat(text("differences")).contains(r.get("differences").get(0).get("method").asText());
        // the other instance of b picked in the UI: the URL carries it
        browser.js("const s = document.getElementById('side-b-instances');"
                + "for (const o of s.options) o.selected = o.value === 'web-4';"
                + "s.dispatchEvent(new Event('change'));");
        until("b on web-4", d -> d.getCurrentUrl().contains("b.instance=web-4")
                && text("compare-summary").contains("web-4"));

        // range against range: the first 20 s of web-1 against the rest of it (windows of 10 s)
        JsonNode instance = api("/api/v1/instances?service=" + SERVICE + "&version=" + V1).get("instances");
        JsonNode web1 = null;
        for (JsonNode i : instance) {
            if (i.get("instanceId").asText().equals("web-1")) {
                web1 = i;
            }
        }
        assertThat(web1).as("web-1 in " + instance).isNotNull();
        Instant first = Instant.parse(web1.get("firstSample").asText());
        String a = first.toString(), aEnd = first.plusSeconds(20).toString(),
                bEnd = Instant.parse(web1.get("lastSample").asText()).plusSeconds(10).toString();
        String sides = "&a.instance=web-1&a.from=" + a + "&a.to=" + aEnd + "&b.instance=web-1&b.from=" + aEnd + "&b.to=" + bEnd;
        open("service=" + SERVICE + "&view=compare&a=" + V1 + "&b=" + V1 + sides);
        until("the range comparison", d -> text("compare-summary").contains(bEnd));
        JsonNode ranges = api("/api/v1/compare?a.service=" + SERVICE + "&a.version=" + V1 + "&b.service=" + SERVICE
                + "&b.version=" + V1 + sides + "&weight=self&top=50");
        assertThat(ranges.get("a").get("samples").asLong()).isPositive();
        assertThat(ranges.get("b").get("samples").asLong()).isPositive();
        assertThat(text("compare-summary")).contains(n(ranges.get("a").get("samples").asLong()) + " → "
                + n(ranges.get("b").get("samples").asLong()));
        assertThat(browser.js("return document.getElementById('side-a-from').value")).isEqualTo(a);
        screenshot("compare-ranges");
    }

    @Test
    @Order(9)
    void createsATaskAndShowsItsMetrics() throws Exception {
        open("service=" + SERVICE + "&version=" + V2 + "&view=tasks");
        WebElement form = browser.driver().findElement(By.id("task-form"));
        form.findElement(By.name("id")).sendKeys("bad");
        new Select(form.findElement(By.name("matchType"))).selectByVisibleText("REGEX");
        form.findElement(By.name("pattern")).sendKeys("(");
        form.findElement(By.name("nameTemplate")).sendKeys("x");
        form.findElement(By.cssSelector("button[type=submit]")).click();
        // the read token may not write: the UI asks for the write token and keeps it for the session
        until("the write token dialog", d -> d.findElement(By.id("token-dialog")).isDisplayed()
                && text("token-reason").contains("auth.write-token"));
        browser.driver().findElement(By.id("token-input")).sendKeys(WRITE_TOKEN);
        browser.driver().findElement(By.cssSelector("#token-form button")).click();
        until("the API's validation message", d -> text("task-message").contains("invalid regular expression"));

        browser.driver().findElement(By.id("task-reset")).click();
        form.findElement(By.name("id")).sendKeys("slowed");
        form.findElement(By.name("pattern")).sendKeys(TASK_PREFIX);
        form.findElement(By.name("nameTemplate")).sendKeys("slowed");
        form.findElement(By.cssSelector("button[type=submit]")).click();
        String answer = until("the API's answer", d -> text("task-message").isEmpty() ? null : text("task-message"));
        assertThat(answer).startsWith("Accepted");
        assertThat(browser.driver().findElement(By.id("token-dialog")).isDisplayed()).as("asked once").isFalse();

        // the samples job applies the definition from its topic: labels the task roots, stores it
        pipeline.process(UiWorkloads.JOB_KEYS);
        open("service=" + SERVICE + "&version=" + V2 + "&view=tasks");
        until("the stored definition", d -> text("task-list").contains(TASK_PREFIX));
        browser.driver().findElement(By.id("task-metric-name")).sendKeys("slowed");
        browser.driver().findElement(By.id("task-metric-go")).click();
        until("the task's metrics", d -> text("task-metric-head").contains("samples in task slowed"));
        // the task roots are A.work's nodes: the task's samples are A.work's
        long aWork = methodSamples("at=" + SERVICE + "@" + V2, A_WORK);
        assertThat(text("task-samples")).isEqualTo(n(aWork));
        assertThat(text("task-metrics")).contains(SPEND).doesNotContain(B_WORK);
        screenshot("tasks");

        // the flame graph of the task: its roots' subtrees with their calling contexts
        open("service=" + SERVICE + "&version=" + V2 + "&task=slowed");
        until("the task's flame graph", d -> Long.valueOf(aWork).equals(
                browser.js("return App.views.flame.flat ? App.views.flame.flat.w[0] : -1")));
        assertThat(browser.js("return App.views.flame.flat.names.includes(arguments[0])", B_WORK))
                .as("outside the task").isEqualTo(false);
        assertThat(text("crumbs")).contains("task slowed");
    }

    @Test
    @Order(10)
    void migrateIsAskedForAndShownAsTheApiAnswersIt() {
        String v2 = "at=" + SERVICE + "@" + V2;
        open("service=" + SERVICE + "&version=" + V2 + "&view=method&method=" + enc(A_WORK) + "&migrate=AG");
        until("the migrated method view", d -> !d.findElement(By.id("callers")).getText().isEmpty());
        assertThat(requests("/api/v1/metrics/method")).anyMatch(u -> u.contains("migrate=AG"));
        checkMethodFigures(v2 + "&migrate=AG");
        JsonNode migration = api("/api/v1/metrics/method?" + v2 + "&migrate=AG&method=" + enc(A_WORK)).get("migration");
        assertThat(migration.get("applied").asBoolean()).as("v1's profile migrated to v2 (%s)", migration).isTrue();
        assertThat(text("migrate-note")).contains("Migrate AG:").contains("migrated from " + migration.get("previous").asText());
        // the callers and callees with migrated samples are the marked rows, with their migrated counts
        JsonNode m = api("/api/v1/metrics/method?" + v2 + "&migrate=AG&method=" + enc(A_WORK));
        for (String table : List.of("callers", "callees")) {
            Map<String, Long> migrated = new TreeMap<>();
            m.get("metrics").forEach(o -> o.get(table).forEach(s -> migrated.merge(s.get("name").asText(),
                    s.get("migratedSamples").asLong(), Long::sum)));
            migrated.values().removeIf(v -> v == 0);
            assertThat(markedRows(table)).as("migrated rows of " + table).isEqualTo(migrated.keySet());
            migrated.forEach((name, v) -> assertThat(text(table)).contains(n(v) + " migrated"));
        }
        screenshot("method-migrated");

        // the control: another mode, carried in the URL and asked for
        new Select(browser.driver().findElement(By.id("migrate"))).selectByValue("BA");
        until("BA asked for", d -> d.getCurrentUrl().contains("migrate=BA")
                && requests("/api/v1/metrics/method").stream().anyMatch(u -> u.contains("migrate=BA"))
                && text("migrate-note").contains("Migrate BA:"));
        until("BA's figures", d -> text("method-time").contains(n(api("/api/v1/metrics/method?" + v2
                + "&migrate=BA&method=" + enc(A_WORK)).get("methodSamples").asLong()) + " of "));
        checkMethodFigures(v2 + "&migrate=BA");

        // the flame graph asks for the nested form, the only one that marks migrated counts
        open("service=" + SERVICE + "&version=" + V2 + "&migrate=AG");
        JsonNode migratedRoot = tree(v2 + "&migrate=AG");
        long total = migratedRoot.get("total").asLong();
        until("the migrated tree", d -> Long.valueOf(total).equals(browser.js("return App.views.flame.flat.w[0]")));
        assertThat(requests("/api/v1/tree")).anyMatch(u -> u.contains("migrate=AG") && !u.contains("format="));
        // frames with migrated samples are hatched (white stripes over the package colour), say so on
        // hover with the API's migrated count, and the legend explains the hatching
        List<JsonNode[]> all = nodes(migratedRoot);
        assertThat(browser.js("return App.views.flame.flat.migrated.filter(v => v > 0).length"))
                .isEqualTo(all.stream().filter(e -> e[0].get("migrated").asBoolean()).count());
        JsonNode marked = all.stream().map(e -> e[0]).filter(x -> x.get("migrated").asBoolean() && !x.get("method").asText().equals("root"))
                .filter(x -> all.stream().filter(e -> e[0].get("method").equals(x.get("method"))).count() == 1)
                .max(Comparator.comparingLong(x -> x.get("total").asLong())).orElseThrow();
        String method = marked.get("method").asText();
        assertThat(Long.parseLong(String.valueOf(browser.js("return document.getElementById('flame').dataset.hatched")))).isPositive();
        assertThat(coloursAlongTheTop(method)).as("hatched " + method).isGreaterThan(1);
        moveTo(frameOffset("flame", "flame", method));
        String tip = until("the migrated frame's tooltip", d -> d.findElement(By.id("tooltip")).isDisplayed()
                ? d.findElement(By.id("tooltip")).getText() : null);
        assertThat(tip).contains(method).contains(n(marked.get("migratedTotal").asLong()) + " of " + n(marked.get("total").asLong())
                + " samples migrated from " + migration.get("previous").asText());
        assertThat(text("legend")).contains("hatched: migrated");
        // the SVG export hatches the same frames: a striped rect over the frame of each one with
        // migrated samples, its migrated count in the title, and no other
        List<String> svgHatched = svgHatchedTitles();
        assertThat(svgHatched).as("hatched frames of the SVG export").isNotEmpty()
                .allMatch(t -> t.endsWith(" migrated"))
                .anyMatch(t -> t.startsWith(method + " — ") && t.endsWith(" samples, " + marked.get("migratedTotal").asLong()
                        + " migrated"));
        assertThat((long) svgHatched.size()).as("no more hatched frames in the SVG than the API marks")
                .isLessThanOrEqualTo(all.stream().filter(e -> e[0].get("migrated").asBoolean()).count());
        assertThat(String.valueOf(browser.js("return App.views.flame.graph.toSvg()"))).contains("<pattern id=\"migrated\"");
        screenshot("flame-migrated");
        // the control: the same frame without migration is one colour, and nothing is hatched
        open("service=" + SERVICE + "&version=" + V2);
        long plainTotal = tree(v2).get("total").asLong();
        until("the tree without migration", d -> Long.valueOf(plainTotal).equals(browser.js("return App.views.flame.flat.w[0]")));
        assertThat(browser.js("return document.getElementById('flame').dataset.hatched")).isEqualTo("0");
        assertThat(coloursAlongTheTop(method)).as("plain " + method).isEqualTo(1);
        assertThat(svgHatchedTitles()).as("nothing hatched in the SVG export without migration").isEmpty();
        assertThat(String.valueOf(browser.js("return App.views.flame.graph.toSvg()"))).doesNotContain("migrated");
        assertThat(text("legend")).doesNotContain("migrated");

        // and the hot methods the same top methods' scope, the rows with migrated samples marked
        open("service=" + SERVICE + "&version=" + V2 + "&view=table&migrate=AG");
        JsonNode top = api("/api/v1/metrics/top?" + v2 + "&migrate=AG&by=self&top=500");
        until("the migrated hot methods", d -> text("table-note").contains(n(top.get("totalSamples").asLong()) + " samples"));
        assertThat(requests("/api/v1/metrics/top")).allMatch(u -> u.contains("migrate=AG"));
        Map<String, Long> migratedMethods = new TreeMap<>();
        for (String by : List.of("self", "method")) {
            api("/api/v1/metrics/top?" + v2 + "&migrate=AG&by=" + by + "&top=500").get("methods").forEach(x -> {
                if (x.get("migratedMethodSamples").asLong() > 0) {
                    migratedMethods.put(x.get("method").asText(), x.get("migratedMethodSamples").asLong());
                }
            });
        }
        assertThat(migratedMethods).as("methods with migrated samples").isNotEmpty();
        assertThat(markedRows("hot")).isEqualTo(migratedMethods.keySet());
        migratedMethods.forEach((name, v) -> assertThat(text("hot")).contains(n(v) + " migrated"));
        screenshot("table-migrated");
    }

    /** The titles of the frames the flame graph's SVG export hatches as migrated, parsed as SVG by the browser. */
    @SuppressWarnings("unchecked")
    private static List<String> svgHatchedTitles() {
        return (List<String>) browser.js("const svg = new DOMParser().parseFromString(App.views.flame.graph.toSvg(), 'image/svg+xml');"
                + "if (svg.querySelector('parsererror')) throw new Error('the SVG export does not parse');"
                + "return [...svg.querySelectorAll('rect.migrated')].map(r => r.parentNode.querySelector('title').textContent)");
    }

    /** The first cells (method names) of a table's rows marked as migrated. */
    @SuppressWarnings("unchecked")
    private static Set<String> markedRows(String table) {
        return new TreeSet<>((List<String>) browser.js("return [...document.querySelectorAll('#' + arguments[0] + ' tbody tr.migrated')]"
                + ".map(tr => tr.cells[0].textContent)", table));
    }

    /**
     * Distinct colours of the flame graph's pixels in a line along the top of a method's first
     * frame (2 px below its edge, the 14 px that end 6 px before its right end, away from its label
     * on the left): one for a plain frame, more for a hatched one.
     */
    private static long coloursAlongTheTop(String method) {
        return (Long) browser.js("const v = App.views.flame, f = v.flat, g = v.graph, L = g.layout();"
                + "let k = -1; for (let j = 0; j < f.n; j++) if (f.names[f.name[j]] === arguments[0]) { k = j; break; }"
                + "const dpr = window.devicePixelRatio || 1, px = (f.x[k] - L.x0) * L.scale, pw = f.w[k] * L.scale;"
                + "if (pw < 24) throw new Error(arguments[0] + ' is ' + pw + ' px wide');"
                + "const d = g.ctx.getImageData(Math.round((px + pw - 20) * dpr), Math.round((g.rowY(L, f.depth[k]) + 2) * dpr), Math.round(14 * dpr), 1).data;"
                + "const seen = new Set(); for (let p = 0; p < d.length; p += 4) seen.add(d[p] + ',' + d[p + 1] + ',' + d[p + 2] + ',' + d[p + 3]);"
                + "return seen.size;", method);
    }

    private static void checkMethodFigures(String selection) {
        JsonNode m = api("/api/v1/metrics/method?" + selection + "&method=" + enc(A_WORK));
        assertThat(text("method-time")).as(selection).contains(n(m.get("methodSamples").asLong()) + " of "
                + n(m.get("totalSamples").asLong()) + " samples");
        assertThat(text("self-time")).as(selection).contains(n(m.get("selfSamples").asLong()) + " of "
                + n(m.get("methodSamples").asLong()));
    }
}
