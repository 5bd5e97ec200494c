package io.cctflow.query;

import java.util.concurrent.CountDownLatch;

/**
 * The query service as a process of its own ({@code java -jar cctflow-query-service.jar}):
 * configured by {@code --config FILE}, {@code CCTFLOW_*} environment variables and
 * {@code --key value} pairs ({@link QueryServiceSettings#fromCommandLine}); runs until SIGTERM or Ctrl-C. Stateless, so
 * several replicas may serve behind a load balancer; the roll-up pass runs on one of them at a
 * time (a lease in Neo4j). A bad key exits with status 2 and a message naming it.
 */
public final class QueryServiceMain {
    private QueryServiceMain() {
    }

    public static void main(String[] args) throws Exception {
        QueryServiceSettings settings;
        try {
            settings = QueryServiceSettings.fromCommandLine(args, System::getenv);
        } catch (IllegalArgumentException e) {
            System.err.println("cctflow query service: " + e.getMessage());
            System.exit(2);
            return;
        }
        QueryServiceConfig config = settings.service();
        QueryService service = QueryService.start(config, settings.alerting());
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
