package io.cctflow.standalone.cluster;

import io.cctflow.servers.Neo4jServer;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The cluster's Neo4j as a process of its own: the Neo4j 5 Community database with Bolt, from
 * Maven Central's {@code neo4j} artifacts ({@link Neo4jServer}); the Neo4j server tarball, which
 * a production cluster would run, is not on Maven Central. Arguments: home directory, Bolt port.
 */
public final class Neo4jMain {
    private Neo4jMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Neo4jServer neo4j = Neo4jServer.builder(Path.of(args[0])).boltPort(Integer.parseInt(args[1])).start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            neo4j.close();
            stopped.countDown();
        }, "cctflow-neo4j-stop"));
        System.out.println("cctflow: Neo4j ready at " + neo4j.boltUri() + " in " + neo4j.startupTime().toMillis() + " ms");
        stopped.await();
    }
}
