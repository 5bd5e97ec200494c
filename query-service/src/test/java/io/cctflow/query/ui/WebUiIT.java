package io.cctflow.query.ui;

import static io.cctflow.query.ui.ShopWorkload.CART;
import static io.cctflow.query.ui.ShopWorkload.RULES;
import static io.cctflow.query.ui.ShopWorkload.V1;
import static io.cctflow.query.ui.ShopWorkload.V2;
import static io.cctflow.query.ui.ShopWorkload.WINDOWS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cctflow.core.Cct;
import io.cctflow.core.task.TaskDefinition;
import io.cctflow.core.task.TaskLabeller;
import io.cctflow.core.task.TaskLabels;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.core.task.MatchType;
import io.cctflow.model.NodeTasks;
import io.cctflow.model.TaskDefinitionRecord;
import io.cctflow.query.QueryService;
import io.cctflow.query.QueryServiceConfig;
import io.cctflow.servers.TestServers;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.neo4j.driver.Driver;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;

/**
 * The web UI in a real headless Chromium (Debian's) against a real query service, with a bearer
 * token, over Neo4j holding {@link ShopWorkload}, whose split is known: every number checked is
 * derived from the workload's stacks or read from the API. Screenshots of each view go to
 * {@code target/ui-screenshots/} and must not be blank.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebUiIT {
    static final String TOKEN = "s3cret-ui-token";
    /** Reads too; task definitions need it (auth.write-token). The user of the test enters this one. */
    static final String WRITE_TOKEN = "s3cret-ui-write-token";
    static final Path SHOTS = Path.of("target", "ui-screenshots");
    static final int INSTANCES_PER_VERSION = 2;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Driver driver;
    private static QueryService service;
    private static Browser browser;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        TestServers.get().cleanNeo4j();
        TestServers.get().createTopic(QueryServiceConfig.defaults().tasksTopic(), 1);
        driver = TestServers.get().newDriver();
        ShopWorkload.write(driver);
        service = QueryService.start(QueryServiceConfig.defaults().with(Map.of(
                QueryServiceConfig.PORT, "0", QueryServiceConfig.NEO4J_URI, TestServers.get().neo4jUri(),
                QueryServiceConfig.BOOTSTRAP_SERVERS, TestServers.get().kafkaBootstrapServers(),
                QueryServiceConfig.ROLLUP_INTERVAL, "0", QueryServiceConfig.AUTH_TOKEN, TOKEN,
                QueryServiceConfig.AUTH_WRITE_TOKEN, WRITE_TOKEN)));
        base = "http://127.0.0.1:" + service.port();
        browser = new Browser(1440, 1000);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (service != null) {
            service.close();
        }
        if (driver != null) {
            driver.close();
        }
    }

    /** Samples of a method over one deployment: per window and instance, times windows and instances. */
    static long overDeployment(List<ShopWorkload.Stack> stacks, String method) {
        return ShopWorkload.methodSamples(stacks, method) * WINDOWS * INSTANCES_PER_VERSION;
    }

    static long samplesOf(List<ShopWorkload.Stack> stacks) {
        return ShopWorkload.samples(stacks) * WINDOWS * INSTANCES_PER_VERSION;
    }

    static String n(long v) {
        return String.format(java.util.Locale.US, "%,d", v);
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** Opens a view and waits for its render to complete. */
    static void open(String query) {
        browser.driver.get(base + "/?" + query);
        browser.until("rendered " + query, d -> browser.js("return document.body.dataset.rendered") != null);
    }

    static String text(String id) {
        return browser.driver.findElement(By.id(id)).getText();
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
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The centre of the first drawn frame of a method, relative to the canvas centre (Selenium's offsets). */
    @SuppressWarnings("unchecked")
    static List<Long> frameOffset(String canvas, String view, String method) {
        return (List<Long>) browser.js("const v = App.views[arguments[0]], f = v.flat, g = v.graph;"
                + "const i = f.names.indexOf(arguments[1]); const L = g.layout();"
                + "let k = -1; for (let j = 0; j < f.n; j++) if (f.names[f.name[j]] === arguments[1]) { k = j; break; }"
                + "const x = (f.x[k] - L.x0) * L.scale + f.w[k] * L.scale / 2, y = g.rowY(L, f.depth[k]) + Flame.ROW / 2;"
                + "const c = document.getElementById(arguments[2]);"
                + "return [Math.round(x - c.clientWidth / 2), Math.round(y - c.clientHeight / 2)];", view, method, canvas);
    }

    @Test
    @Order(1)
    void asksForTheTokenThenSelectsAService() {
        browser.driver.get(base + "/");
        browser.until("the token dialog", d -> d.findElement(By.id("token-dialog")).isDisplayed());
        browser.driver.findElement(By.id("token-input")).sendKeys(TOKEN); // the read token: writes ask again
        browser.driver.findElement(By.cssSelector("#token-form button")).click();
        browser.until("the first service's flame graph", d -> browser.js("return document.getElementById('flame').dataset.drawn") != null);
        Select services = new Select(browser.driver.findElement(By.id("service")));
        assertThat(services.getOptions()).extracting(WebElement::getText).containsExactly("billing", "checkout");
        services.selectByVisibleText("checkout");
        long all = samplesOf(V1) + samplesOf(V2);
        browser.until("checkout's whole tree", d -> Long.valueOf(all).equals(browser.js(
                "return S.service === 'checkout' && App.views.flame.flat ? App.views.flame.flat.w[0] : -1")));
        assertThat(browser.driver.getCurrentUrl()).contains("service=checkout");
        // the timeline is requested after the flame graph's tree
        browser.until("checkout's timeline", d -> text("timeline-legend").startsWith(n(all) + " samples"));
    }

    @Test
    @Order(2)
    void flameGraphDrawsTheWorkloadsFramesAndHoverShowsTheirNumbers() {
        open("service=checkout&version=v1");
        browser.until("v1 drawn", d -> Long.valueOf(samplesOf(V1)).equals(browser.js("return App.views.flame.flat.w[0]")));
        @SuppressWarnings("unchecked")
        List<String> drawn = (List<String>) browser.js("return App.views.flame.flat.names");
        Set<String> expected = new TreeSet<>(List.of("root"));
        V1.forEach(s -> List.of(s.frames()).forEach(f -> expected.add(f.substring(0, f.lastIndexOf(':')))));
        assertThat(new TreeSet<>(drawn)).isEqualTo(expected);

        List<Long> at = frameOffset("flame", "flame", CART);
        new Actions(browser.driver).moveToElement(browser.driver.findElement(By.id("flame")), at.get(0).intValue(),
                at.get(1).intValue()).perform();
        String tip = browser.until("the tooltip", d -> d.findElement(By.id("tooltip")).isDisplayed()
                ? d.findElement(By.id("tooltip")).getText() : null);
        assertThat(tip).contains(CART).contains(n(overDeployment(V1, CART)) + " of " + n(samplesOf(V1)))
                .contains("line 42 of CheckoutController.checkout");
        screenshot("flame");
    }

    @Test
    @Order(3)
    void clickZoomsInTheTreeItHoldsAndEscResets() {
        List<Long> at = frameOffset("flame", "flame", CART);
        new Actions(browser.driver).moveToElement(browser.driver.findElement(By.id("flame")), at.get(0).intValue(),
                at.get(1).intValue()).click().perform();
        // the whole tree is held and nothing below Cart.total was pruned: zoomed without a request
        browser.until("zoomed into Cart.total", d -> d.getCurrentUrl().contains("node=")
                && Long.valueOf(overDeployment(V1, CART)).equals(browser.js("const v = App.views.flame, f = v.flat;"
                        + "return f.names[f.name[v.focus()]] === arguments[0] ? f.w[v.focus()] : -1", CART)));
        assertThat(browser.js("return window.cctflowTimings.length")).as("tree requests").isEqualTo(1L);
        assertThat(text("crumbs")).contains("Cart.total");
        screenshot("flame-zoomed");
        browser.driver.findElement(By.tagName("body")).sendKeys(Keys.ESCAPE);
        browser.until("zoom reset", d -> !d.getCurrentUrl().contains("node=")
                && Long.valueOf(0).equals(browser.js("return App.views.flame.focus()")));
        assertThat(browser.js("return App.views.flame.flat.w[0]")).isEqualTo(samplesOf(V1));
    }

    @Test
    @Order(4)
    void clickOnAPrunedSubtreeRequeriesIt() {
        // pruned at 30 % of v1's samples: Cart.total (1,000 of 2,200) stays, PriceRules.apply:31 (600) below it not
        open("service=checkout&version=v1&minShare=0.3");
        browser.until("pruned tree", d -> Long.valueOf(samplesOf(V1)).equals(browser.js("return App.views.flame.flat.w[0]")));
        assertThat(browser.js("return App.views.flame.flat.names.includes(arguments[0])", ShopWorkload.GET)).isEqualTo(false);
        List<Long> at = frameOffset("flame", "flame", CART);
        new Actions(browser.driver).moveToElement(browser.driver.findElement(By.id("flame")), at.get(0).intValue(),
                at.get(1).intValue()).click().perform();
        browser.until("the subtree of Cart.total from the API", d -> d.getCurrentUrl().contains("node=")
                && Long.valueOf(overDeployment(V1, CART)).equals(browser.js("const f = App.views.flame.flat;"
                        + "return f.names[f.name[0]] === arguments[0] ? f.w[0] : -1", CART)));
        assertThat(browser.js("return App.views.flame.flat.names.includes(arguments[0])", ShopWorkload.GET))
                .as("what pruning hid shows up").isEqualTo(true);
    }

    @Test
    @Order(5)
    void slashFocusesSearchWhichShowsRecursionAwareMethodTime() {
        open("service=checkout&version=v1");
        browser.driver.findElement(By.tagName("body")).sendKeys("/");
        assertThat(browser.js("return document.activeElement.id")).isEqualTo("search");
        browser.driver.switchTo().activeElement().sendKeys("PriceRules");
        // recursion-aware: a sample with PriceRules.apply three times on its stack counts once
        String expected = "method time " + n(overDeployment(V1, RULES)) + " of " + n(samplesOf(V1)) + " samples";
        String shown = browser.until("the search result", d -> {
            String t = d.findElement(By.id("search-result")).getText();
            return t.contains("method time") ? t : null;
        });
        assertThat(shown).contains(expected).contains("3 frames");
        assertThat(browser.driver.getCurrentUrl()).contains("q=PriceRules");
        screenshot("search");
    }

    @Test
    @Order(6)
    void methodViewShowsTheApisNumbersAndTheBaselineArrow() {
        open("service=checkout&version=v2&view=method&method=" + enc(CART));
        browser.until("the method view", d -> !d.findElement(By.id("callers")).getText().isEmpty());
        JsonNode m = api("/api/v1/metrics/method?at=checkout@v2&method=" + enc(CART));
        assertThat(m.get("methodSamples").asLong()).isEqualTo(overDeployment(V2, CART));
        assertThat(text("method-time")).contains(n(m.get("methodSamples").asLong()) + " of "
                + n(m.get("totalSamples").asLong()) + " samples");
        assertThat(text("self-time")).contains(n(m.get("selfSamples").asLong()) + " of "
                + n(m.get("methodSamples").asLong()));
        JsonNode caller = m.get("metrics").get(0).get("callers").get(0);
        assertThat(text("callers")).contains(caller.get("name").asText())
                .contains(n(caller.get("samples").asLong()) + " of " + n(m.get("methodSamples").asLong())).contains("42");
        JsonNode callee = m.get("metrics").get(0).get("callees").get(0);
        assertThat(text("callees")).contains(callee.get("name").asText())
                .contains(n(callee.get("samples").asLong()) + " of " + n(m.get("methodSamples").asLong())).contains("57");
        JsonNode before = api("/api/v1/metrics/method?at=checkout@v1&method=" + enc(CART));
        assertThat(text("baseline")).contains("vs v1").contains("improvement");
        assertThat(before.get("methodTime").asDouble()).isGreaterThan(m.get("methodTime").asDouble());
        screenshot("method");
    }

    @Test
    @Order(7)
    void comparesTwoDeployments() {
        open("service=checkout&view=compare&a=v1&b=v2");
        browser.until("the diff flame graph", d -> browser.js("return document.getElementById('diff-flame').dataset.drawn") != null);
        JsonNode r = api("/api/v1/compare?a.at=checkout@v1&b.at=checkout@v2&weight=self&top=50");
        assertThat(text("compare-summary")).contains(r.get("message").asText()).contains(String.format(java.util.Locale.US, "%.1f %%", r.get("score").asDouble()))
                .contains(n(r.get("commonTree").get("size").asLong()) + " nodes");
        int rows = browser.driver.findElements(By.cssSelector("#differences tbody tr")).size();
        assertThat(rows).isEqualTo(Math.max(1, r.get("differences").size()));
        assertThat(text("differences")).contains(r.get("differences").get(0).get("method").asText());
        screenshot("compare");
    }

    @Test
    @Order(8)
    void comparesTwoInstancesAndTwoTimeRangesChosenPerSide() {
        // instance against instance: web-1 (v1) against web-3 (v2), one instance's windows each
        open("service=checkout&view=compare&a=v1&a.instance=web-1&b=v2&b.instance=web-3");
        browser.until("the instance comparison", d -> text("compare-summary").contains("web-3"));
        long perInstanceV1 = ShopWorkload.samples(V1) * WINDOWS, perInstanceV2 = ShopWorkload.samples(V2) * WINDOWS;
        assertThat(text("compare-summary")).contains(n(perInstanceV1) + " → " + n(perInstanceV2));
        JsonNode r = api("/api/v1/compare?a.at=checkout@v1&a.instance=web-1&b.at=checkout@v2&b.instance=web-3"
                + "&weight=self&top=50");
        assertThat(r.get("a").get("samples").asLong()).isEqualTo(perInstanceV1);
        assertThat(text("differences")).contains(r.get("differences").get(0).get("method").asText());
        // the other instance of b picked in the UI: the URL carries it
        browser.js("const s = document.getElementById('side-b-instances');"
                + "for (const o of s.options) o.selected = o.value === 'web-4';"
                + "s.dispatchEvent(new Event('change'));");
        browser.until("b on web-4", d -> d.getCurrentUrl().contains("b.instance=web-4")
                && text("compare-summary").contains("web-4"));

        // range against range: the first and the last three windows of web-1, the same stacks
        String a = ShopWorkload.iso(0), aEnd = ShopWorkload.iso(3), bStart = ShopWorkload.iso(WINDOWS - 3),
                bEnd = ShopWorkload.iso(WINDOWS);
        open("service=checkout&view=compare&a=v1&a.instance=web-1&a.from=" + a + "&a.to=" + aEnd
                + "&b=v1&b.instance=web-1&b.from=" + bStart + "&b.to=" + bEnd);
        browser.until("the range comparison", d -> text("compare-summary").contains(bStart));
        assertThat(text("compare-summary")).contains(n(3 * ShopWorkload.samples(V1)) + " → "
                + n(3 * ShopWorkload.samples(V1)));
        assertThat(browser.js("return document.getElementById('side-a-from').value")).isEqualTo(a);
        screenshot("compare-ranges");
    }

    @Test
    @Order(9)
    void createsATaskAndShowsItsMetrics() {
        open("service=checkout&version=v2&view=tasks");
        WebElement form = browser.driver.findElement(By.id("task-form"));
        form.findElement(By.name("id")).sendKeys("bad");
        new Select(form.findElement(By.name("matchType"))).selectByVisibleText("REGEX");
        form.findElement(By.name("pattern")).sendKeys("(");
        form.findElement(By.name("nameTemplate")).sendKeys("x");
        form.findElement(By.cssSelector("button[type=submit]")).click();
        // the read token may not write: the UI asks for the write token and keeps it for the session
        browser.until("the write token dialog", d -> d.findElement(By.id("token-dialog")).isDisplayed()
                && text("token-reason").contains("auth.write-token"));
        browser.driver.findElement(By.id("token-input")).sendKeys(WRITE_TOKEN);
        browser.driver.findElement(By.cssSelector("#token-form button")).click();
        browser.until("the API's validation message", d -> text("task-message").contains("invalid regular expression"));

        browser.driver.findElement(By.id("task-reset")).click();
        form.findElement(By.name("id")).sendKeys("cart");
        form.findElement(By.name("pattern")).sendKeys("com.shop.cart.");
        form.findElement(By.name("nameTemplate")).sendKeys("cart");
        form.findElement(By.cssSelector("button[type=submit]")).click();
        String answer = browser.until("the API's answer", d -> text("task-message").isEmpty() ? null : text("task-message"));
        assertThat(answer).startsWith("Accepted");
        assertThat(browser.driver.findElement(By.id("token-dialog")).isDisplayed()).as("asked once").isFalse();

        acceptAsTheSamplesJobDoes(TaskDefinition.prefix("cart", "com.shop.cart.", "cart"));
        browser.driver.findElement(By.id("task-metric-name")).sendKeys("cart");
        browser.driver.findElement(By.id("task-metric-go")).click();
        browser.until("the task's metrics", d -> text("task-metric-head").contains("samples in task cart"));
        assertThat(text("task-list")).contains("cart").contains("com.shop.cart.");
        assertThat(text("task-samples")).isEqualTo(n(overDeployment(V2, CART)));
        assertThat(text("task-metrics")).contains(RULES);
        screenshot("tasks");

        // the flame graph of the task: its roots' subtrees with their calling contexts
        open("service=checkout&version=v2&task=cart");
        browser.until("the task's flame graph", d -> Long.valueOf(overDeployment(V2, CART)).equals(
                browser.js("return App.views.flame.flat ? App.views.flame.flat.w[0] : -1")));
        assertThat(browser.js("return App.views.flame.flat.names.includes(arguments[0])", ShopWorkload.SAVE))
                .as("outside the task").isEqualTo(false);
        assertThat(text("crumbs")).contains("task cart");
    }

    /** What the samples job does with an accepted definition: stores it and labels the task roots. */
    private static void acceptAsTheSamplesJobDoes(TaskDefinition definition) {
        GraphWriter writer = new GraphWriter(driver, "");
        writer.writeTaskDefinitions(List.of(new TaskDefinitionRecord("cart", ShopWorkload.SERVICE, MatchType.PREFIX,
                "com.shop.cart.", "cart", System.currentTimeMillis())));
        List<NodeTasks> rows = new ArrayList<>();
        for (List<ShopWorkload.Stack> stacks : List.of(V1, V2)) {
            Cct tree = ShopWorkload.tree(stacks);
            TaskLabels labels = new TaskLabeller(id -> qualifiedName(tree, id), List.of(definition)).label(tree);
            for (int i = 1; i < tree.size(); i++) {
                List<String> rooted = new ArrayList<>(labels.taskNames(i));
                rooted.removeAll(labels.taskNames(tree.parent(i)));
                if (!rooted.isEmpty()) {
                    rows.add(new NodeTasks(ShopWorkload.SERVICE, tree.id(i), rooted));
                }
            }
        }
        assertThat(rows).isNotEmpty();
        writer.writeNodeTasks(rows);
    }

    private static String qualifiedName(Cct tree, long methodId) {
        for (ShopWorkload.Instance i : ShopWorkload.INSTANCES) {
            for (ShopWorkload.Stack s : i.stacks()) {
                for (String f : s.frames()) {
                    var m = ShopWorkload.method(f.substring(0, f.lastIndexOf(':')));
                    if (m.id() == methodId) {
                        return m.className() + "." + m.methodName();
                    }
                }
            }
        }
        return null;
    }
}
