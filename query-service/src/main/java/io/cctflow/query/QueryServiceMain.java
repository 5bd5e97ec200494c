package io.cctflow.query;

import io.cctflow.query.alerting.AlertingConfig;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * The query service as a process of its own ({@code java -jar cctflow-query-service.jar}):
 * configured by {@code --config FILE}, {@code CCTFLOW_*} environment variables and
 * {@code --key value} pairs ({@link ConfigSources}); runs until SIGTERM or Ctrl-C. Stateless, so
 * several replicas may serve behind a load balancer; the roll-up pass runs on one of them at a
 * time (a lease in Neo4j). A bad key exits with status 2 and a message naming it.
 */
public final class QueryServiceMain {
    private QueryServiceMain() {
    }

    public static void main(String[] args) throws Exception {
        Set<String> keys = new LinkedHashSet<>(QueryServiceConfig.KEYS.keySet());
        keys.addAll(AlertingConfig.KEYS.keySet());
        QueryServiceConfig config;
        AlertingConfig alerting;
        try {
            Map<String, String> values = ConfigSources.read(args, System.getenv(), keys);
            Map<String, String> service = new LinkedHashMap<>(values);
            service.keySet().removeIf(k -> k.startsWith("alerting."));
            config = QueryServiceConfig.from(service);
            alerting = AlertingConfig.from(values);
        } catch (IllegalArgumentException e) {
            System.err.println("cctflow query service: " + e.getMessage());
            System.exit(2);
            return;
        }
        QueryService service = QueryService.start(config, alerting);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.close();
            stopped.countDown();
        }, "cctflow-shutdown"));
        System.out.println("cctflow query service listening on " + config.bindAddress() + ":" + service.port()
                + " (Neo4j " + config.graph().uri() + ")");
        stopped.await();
    }
}
