package io.cctflow.query.ui;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.MethodId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.WindowCounts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;

/**
 * A checkout service whose split is known by construction: per window and instance, the stacks
 * below with their counts, two deployments (v1: web-1, web-2; v2: web-3, web-4) in which v2 moves
 * time from {@code Cart.total} to a new {@code TaxService.lookupRegion}; and a small second service.
 * Written to Neo4j with the graph-store writer as the samples job writes windows; the expected
 * numbers of any selection are sums of these counts.
 */
final class ShopWorkload {
    static final String SERVICE = "checkout";
    static final long T0 = Instant.parse("2026-11-20T09:00:00Z").toEpochMilli();
    static final long WINDOW = 60_000;
    static final int WINDOWS = 10;
    static final String CHECKOUT = "com.shop.web.CheckoutController.checkout(Lcom/shop/Order;)V";
    static final String CART = "com.shop.cart.Cart.total()J";
    static final String RULES = "com.shop.pricing.PriceRules.apply(I)J";
    static final String TAX = "com.shop.tax.TaxService.rate()D";
    static final String REGION = "com.shop.tax.TaxService.lookupRegion()Ljava/lang/String;";
    static final String SAVE = "com.shop.db.OrderRepository.save(Lcom/shop/Order;)V";
    static final String SQL = "org.postgresql.jdbc.PgStatement.execute(Ljava/lang/String;)Z";
    static final String JSON = "com.fasterxml.jackson.databind.ObjectMapper.writeValueAsString(Ljava/lang/Object;)Ljava/lang/String;";
    static final String GET = "java.util.HashMap.get(Ljava/lang/Object;)Ljava/lang/Object;";
    static final String RUN = "java.lang.Thread.run()V";
    static final String TICK = "com.shop.jobs.Scheduler.tick()V";
    static final String FLUSH = "com.shop.metrics.Reporter.flush()V";

    /** One stack, outermost frame first, each "signature:line of the call in its caller", and its count. */
    record Stack(String thread, long count, String... frames) {
    }

    static final List<Stack> V1 = List.of(
            new Stack("http-nio-8080-exec-1", 30, RUN + ":0", CHECKOUT + ":748", CART + ":42", RULES + ":57",
                    RULES + ":31", RULES + ":31", GET + ":88"),
            new Stack("http-nio-8080-exec-2", 10, RUN + ":0", CHECKOUT + ":748", CART + ":42"),
            new Stack("http-nio-8080-exec-1", 10, RUN + ":0", CHECKOUT + ":748", CART + ":42", RULES + ":57"),
            new Stack("http-nio-8080-exec-2", 20, RUN + ":0", CHECKOUT + ":748", TAX + ":44"),
            new Stack("http-nio-8080-exec-1", 25, RUN + ":0", CHECKOUT + ":748", SAVE + ":47", SQL + ":112"),
            new Stack("http-nio-8080-exec-2", 5, RUN + ":0", CHECKOUT + ":748", SAVE + ":47", JSON + ":101"),
            new Stack("scheduler-1", 10, RUN + ":0", TICK + ":748", FLUSH + ":23"));

    static final List<Stack> V2 = List.of(
            new Stack("http-nio-8080-exec-1", 15, RUN + ":0", CHECKOUT + ":748", CART + ":42", RULES + ":57",
                    RULES + ":31", RULES + ":31", GET + ":88"),
            new Stack("http-nio-8080-exec-2", 5, RUN + ":0", CHECKOUT + ":748", CART + ":42"),
            new Stack("http-nio-8080-exec-1", 10, RUN + ":0", CHECKOUT + ":748", CART + ":42", RULES + ":57"),
            new Stack("http-nio-8080-exec-2", 10, RUN + ":0", CHECKOUT + ":748", TAX + ":44"),
            new Stack("http-nio-8080-exec-2", 30, RUN + ":0", CHECKOUT + ":748", TAX + ":44", REGION + ":61"),
            new Stack("http-nio-8080-exec-1", 25, RUN + ":0", CHECKOUT + ":748", SAVE + ":47", SQL + ":112"),
            new Stack("http-nio-8080-exec-2", 5, RUN + ":0", CHECKOUT + ":748", SAVE + ":47", JSON + ":101"),
            new Stack("scheduler-1", 10, RUN + ":0", TICK + ":748", FLUSH + ":23"));

    static final List<Stack> BILLING = List.of(
            new Stack("main", 7, RUN + ":0", "com.bill.Invoices.run()V:12"));

    /** (service, version, instance, zone, first window, stacks). */
    record Instance(String service, String version, String id, String zone, int firstWindow, List<Stack> stacks) {
        String key() {
            return new ExecutionId(service, version, id).key();
        }
    }

    static final List<Instance> INSTANCES = List.of(
            new Instance(SERVICE, "v1", "web-1", "eu-1", 0, V1),
            new Instance(SERVICE, "v1", "web-2", "eu-2", 0, V1),
            new Instance(SERVICE, "v2", "web-3", "eu-1", WINDOWS, V2),
            new Instance(SERVICE, "v2", "web-4", "eu-2", WINDOWS, V2),
            new Instance("billing", "2026.11", "bill-1", "eu-1", 0, BILLING));

    /** The start of window {@code w} as ISO-8601 (window 0 starts at {@link #T0}). */
    static String iso(int w) {
        return Instant.ofEpochMilli(T0 + w * WINDOW).toString();
    }

    /** Samples of a method in one window of one instance of these stacks, counted once per stack (recursion-aware). */
    static long methodSamples(List<Stack> stacks, String signature) {
        long n = 0;
        for (Stack s : stacks) {
            for (String f : s.frames()) {
                if (f.startsWith(signature + ":")) {
                    n += s.count();
                    break;
                }
            }
        }
        return n;
    }

    static long samples(List<Stack> stacks) {
        return stacks.stream().mapToLong(Stack::count).sum();
    }

    static MethodRecord method(String signature) {
        int paren = signature.indexOf('(');
        int dot = signature.lastIndexOf('.', paren);
        return MethodRecord.of(signature.substring(0, dot), signature.substring(dot + 1, paren), signature.substring(paren));
    }

    /** The tree of one window of one instance. */
    static Cct tree(List<Stack> stacks) {
        Cct tree = new Cct();
        for (Stack s : stacks) {
            long[] methods = new long[s.frames().length];
            int[] lines = new int[methods.length];
            for (int i = 0; i < methods.length; i++) {
                String f = s.frames()[i];
                int colon = f.lastIndexOf(':');
                MethodRecord m = method(f.substring(0, colon));
                methods[i] = MethodId.of(m.className(), m.methodName(), m.descriptor());
                lines[i] = Integer.parseInt(f.substring(colon + 1));
            }
            tree.addStack(methods, lines, methods.length, tree.thread(s.thread()), s.count());
        }
        return tree;
    }

    /** Writes every instance's windows; the graph is expected empty. */
    static void write(Driver driver) {
        GraphSchema.ensure(driver, "");
        GraphWriter writer = new GraphWriter(driver, "");
        Map<String, MethodRecord> methods = new LinkedHashMap<>();
        Map<Long, NodeRecord> nodes = new LinkedHashMap<>();
        List<WindowCounts> windows = new ArrayList<>();
        List<InstanceRecord> instances = new ArrayList<>();
        for (Instance i : INSTANCES) {
            for (Stack s : i.stacks()) {
                for (String f : s.frames()) {
                    String sig = f.substring(0, f.lastIndexOf(':'));
                    methods.putIfAbsent(sig, method(sig));
                }
            }
            Cct tree = tree(i.stacks());
            for (int n = 1; n < tree.size(); n++) {
                int rp = tree.recursiveParent(n);
                nodes.putIfAbsent(tree.id(n), new NodeRecord(tree.id(n), tree.id(tree.parent(n)), tree.method(n),
                        tree.callSiteLine(n), tree.depth(n), rp < 0 ? NodeRecord.NO_RECURSIVE_PARENT : tree.id(rp)));
            }
            for (int w = i.firstWindow(); w < i.firstWindow() + WINDOWS; w++) {
                long start = T0 + w * WINDOW;
                windows.add(new WindowCounts(i.key(), start, start + WINDOW, TreeCounts.of(tree)));
            }
            instances.add(new InstanceRecord(i.service(), i.version(), i.id(), "host-" + i.id(), 4242,
                    T0 + i.firstWindow() * WINDOW - 5_000, Map.of("zone", i.zone()), T0 + i.firstWindow() * WINDOW,
                    T0 + (i.firstWindow() + WINDOWS) * WINDOW));
        }
        writer.writeMethods(new ArrayList<>(methods.values()));
        writer.writeInstances(instances);
        writer.writeNodes(new ArrayList<>(nodes.values()));
        writer.writeWindowCounts(windows);
    }
}
