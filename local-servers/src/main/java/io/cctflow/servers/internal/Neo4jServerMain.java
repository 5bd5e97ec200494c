package io.cctflow.servers.internal;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import io.cctflow.servers.Neo4jServer;

/**
 * Entry point of a Neo4j child JVM ({@code Neo4jProcess}, the cluster's Neo4j): runs a
 * {@link Neo4jServer} until SIGTERM or until the parent goes, and prints {@value #READY} with the
 * Bolt URI once the database answers over Bolt. Arguments: home directory, Bolt port ({@code 0}:
 * a free one). The database stops when the parent goes ({@link ParentWatchdog}).
 */
public final class Neo4jServerMain {

    /** Printed, followed by the Bolt URI, {@code " in "} and the start-up milliseconds, when ready. */
    public static final String READY = "cctflow: Neo4j ready at ";

    private Neo4jServerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ParentWatchdog.start("Neo4j");
        Neo4jServer.Builder builder = Neo4jServer.builder(Path.of(args[0]));
        int port = Integer.parseInt(args[1]);
        if (port != 0) {
            builder.boltPort(port);
        }
        Neo4jServer neo4j = builder.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            neo4j.close();
            stopped.countDown();
        }, "cctflow-neo4j-stop"));
        System.out.println(READY + neo4j.boltUri() + " in " + neo4j.startupTime().toMillis() + " ms");
        stopped.await();
    }
}
