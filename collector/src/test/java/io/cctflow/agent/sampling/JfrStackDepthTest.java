package io.cctflow.agent.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JfrStackDepthTest {
    @Test
    void aRunningJfrShallowerThanWantedIsReportedWithTheFlagThatFixesIt() {
        assertThat(JfrStackDepth.warningWhenAlreadyRunning(256, "")).contains("stack depth of 64 frames",
                "-XX:FlightRecorderOptions:stackdepth=256");
        assertThat(JfrStackDepth.warningWhenAlreadyRunning(256, null)).contains("stack depth of 64 frames");
        assertThat(JfrStackDepth.warningWhenAlreadyRunning(256, "repository=/tmp/jfr,stackdepth=128"))
                .contains("stack depth of 128 frames", "stackdepth=256");
        assertThat(JfrStackDepth.warningWhenAlreadyRunning(512, "stackdepth=256,memorysize=20m"))
                .contains("stack depth of 256 frames", "stackdepth=512");
    }

    @Test
    void aRunningJfrAsDeepAsWantedOrDeeperIsNoWarning() {
        assertThat(JfrStackDepth.warningWhenAlreadyRunning(256, "stackdepth=256")).isNull();
        assertThat(JfrStackDepth.warningWhenAlreadyRunning(256, "memorysize=20m,stackdepth=1024")).isNull();
        assertThat(JfrStackDepth.warningWhenAlreadyRunning(64, "")).isNull();
    }
}
