package io.cctflow.standalone.cluster;

import io.cctflow.standalone.DemoDeployments;
import io.cctflow.standalone.DemoProcess;
import io.cctflow.standalone.Standalone;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * {@code standalone cluster}: starts the {@link Cluster}, prints each part as it comes up and the
 * memory of every process, optionally a demo JVM, and stops everything on Ctrl-C.
 */
public final class ClusterMain {
    private ClusterMain() {
    }

    public static void run(String[] args) throws Exception {
        ClusterOptions options;
        try {
            if (args.length == 1 && args[0].equals("--help")) {
                System.out.print(ClusterOptions.USAGE);
                return;
            }
            options = ClusterOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Standalone.routeLogsToFile(options.dataDir(), "cluster.log");
        long start = System.nanoTime();
        Consumer<String> progress = what -> System.out.printf("[%6.1f s] %s%n", (System.nanoTime() - start) / 1e9, what);
        CountDownLatch stopped = new CountDownLatch(1);
        Cluster[] cluster = new Cluster[1];
        DemoDeployments[] demo = new DemoDeployments[1];
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("stopping the cluster ...");
            try {
                if (demo[0] != null) {
                    demo[0].close();
                }
            } catch (Exception e) {
                System.err.println("while stopping the demo: " + e);
            }
            if (cluster[0] != null) {
                cluster[0].close();
            }
            System.out.println("stopped.");
            stopped.countDown();
        }, "cctflow-cluster-stop"));
        try {
            cluster[0] = Cluster.start(options, progress);
        } catch (Exception e) {
            System.err.println("cctflow cluster failed: " + e.getMessage());
            System.exit(1);
            return;
        }
        cluster[0].rssMib().forEach((name, rss) -> progress.accept("  " + name + ": " + rss + " MiB resident"));
        if (options.demo()) {
            Path agentJar = Path.of(ClusterMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .getParent().resolve("cctflow-agent.jar");
            demo[0] = DemoDeployments.start(agentJar, cluster[0].kafka().bootstrapServers(),
                    options.dataDir().resolve("demo.log"), progress);
            progress.accept("demo JVMs started (" + DemoProcess.INSTANCES + " instances of service " + DemoProcess.SERVICE
                    + "; its two deployments: "
                    + DemoDeployments.compareQuery("http://127.0.0.1:" + cluster[0].queryPorts().get(0)) + ")");
        }
        int port = cluster[0].queryPorts().get(0);
        System.out.println();
        System.out.println("cctflow cluster is up. Try:");
        System.out.println("  curl 'http://127.0.0.1:" + port + "/api/v1/services'");
        System.out.println("  curl 'http://127.0.0.1:" + (port + 1) + "/api/v1/services'");
        System.out.println("  Flink's REST API: " + cluster[0].flink().rest().base() + "/jobs/overview");
        System.out.println("Press Ctrl-C to stop.");
        stopped.await();
    }
}
