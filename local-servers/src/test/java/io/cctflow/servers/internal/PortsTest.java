package io.cctflow.servers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link Ports#free} never hands out a port twice in one JVM: the kernel gives ports just closed
 * to later binds (2,000 picks from Linux's ~28,000 ephemeral ports repeat some dozens of times
 * by chance), which let two servers starting side by side be handed the same port.
 */
class PortsTest {
    @Test
    void noPortIsHandedOutTwice() {
        Set<Integer> seen = new HashSet<>();
        for (int k = 0; k < 1_000; k++) {
            for (int port : Ports.free(2)) {
                assertThat(seen.add(port)).as("port %d handed out again at pick %d", port, k).isTrue();
                assertThat(port).isPositive();
            }
        }
    }
}
