package io.cctflow.query.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The publisher connects to Kafka only once it publishes: a query service whose task API is never
 * used holds no producer, so an unreachable broker costs it no connection attempts and no warning
 * per retry. A listening socket stands in for the broker and tells whether anyone connected.
 */
class TaskPublisherTest {
    @Test
    void noConnectionBeforeTheFirstPublishOneAtIt() throws Exception {
        try (ServerSocket broker = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            broker.setSoTimeout(3_000);
            TaskPublisher publisher = new TaskPublisher("127.0.0.1:" + broker.getLocalPort(), "tasks");
            try {
                assertThatThrownBy(broker::accept).as("nothing connects while nothing is published")
                        .isInstanceOf(SocketTimeoutException.class);

                // the stand-in never answers, so the publish waits; it is the connection that counts
                CompletableFuture<Void> publish = CompletableFuture.runAsync(() -> {
                    try {
                        publisher.delete("some-task");
                    } catch (TaskPublisher.PublishException e) {
                        // expected once the publisher is closed below
                    }
                });
                broker.setSoTimeout(30_000);
                try (Socket connected = broker.accept()) {
                    assertThat(connected.isConnected()).isTrue();
                }
            } finally {
                publisher.close();
            }
        }
    }

    @Test
    void aClosedPublisherRefusesToPublish() {
        TaskPublisher publisher = new TaskPublisher("127.0.0.1:9", "tasks");
        publisher.close();
        assertThatThrownBy(() -> publisher.delete("x")).isInstanceOf(TaskPublisher.PublishException.class)
                .hasMessageContaining("closed");
    }
}
