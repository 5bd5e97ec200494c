package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

class SetupTest {
    private static final Path JAR = Path.of("/x/agent.jar");
    private static final Path SETTINGS = Path.of("/x");

    private static List<String> options(Setup setup) {
        return setup.jvmOptions(JAR, "127.0.0.1:9092", SETTINGS, Duration.ofSeconds(5), 256, 3);
    }

    @Test
    void baselineHasNeitherAgentNorJfr() {
        assertThat(options(Setup.NONE)).isEmpty();
        assertThat(Setup.NONE.childArguments()).isEmpty();
    }

    @Test
    void attachedSetupsStartAsTheirControlAndPublish() {
        // the agent comes later, through the Attach API: the child starts as its control does
        assertThat(options(Setup.NONE_ATTACHED)).isEqualTo(options(Setup.NONE)).isEmpty();
        assertThat(Setup.NONE_ATTACHED.childArguments()).isEqualTo(Setup.NONE.childArguments());
        assertThat(options(Setup.JFR_20_ATTACHED)).isEqualTo(options(Setup.JFR_20));
        assertThat(Setup.JFR_20_ATTACHED.childArguments()).isEqualTo(Setup.JFR_20.childArguments());
        assertThat(Setup.NONE_ATTACHED.control()).isEqualTo(Setup.NONE);
        assertThat(Setup.JFR_20_ATTACHED.control()).isEqualTo(Setup.JFR_20);
        for (Setup s : Setup.values()) {
            assertThat(s.isAttached()).as(s.label).isEqualTo(s == Setup.NONE_ATTACHED || s == Setup.JFR_20_ATTACHED);
            assertThat(s.publishes()).as(s.label)
                    .isEqualTo(s.isAttached() || (s.isAgent() && s != Setup.AGENT_20_AWAY));
        }
        assertThat(Setup.NONE_ATTACHED.agentArguments("127.0.0.1:9092", Duration.ofSeconds(20), 256, 2))
                .contains("version=noneattached", "instance=noneattached-r2", "period=20ms", "flush=20000ms");
        assertThatThrownBy(Setup.NONE::control)
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("none");
    }

    @Test
    void agentRunsGetTheJarWithTheirPeriodAndTopic() {
        assertThat(options(Setup.AGENT_10)).containsExactly("-XX:FlightRecorderOptions:stackdepth=256",
                "-javaagent:/x/agent.jar=bootstrap.servers=127.0.0.1:9092,topic=cctflow.bench.agent10,"
                        + "service=overhead-bench,version=agent10,instance=agent10-r3,period=10ms,flush=5000ms,"
                        + "stackdepth=256");
        assertThat(Setup.AGENT_10.childArguments()).containsExactly(OverheadWorkload.AWAIT_JFR);
    }

    @Test
    void brokerAwayRunsTheAgentAgainstAnUnreachableBrokerWithASmallQueue() {
        assertThat(options(Setup.AGENT_20_AWAY)).containsExactly("-XX:FlightRecorderOptions:stackdepth=256",
                "-javaagent:/x/agent.jar=bootstrap.servers=127.0.0.1:1,buffer=128k,topic=cctflow.bench.agent20away,"
                        + "service=overhead-bench,version=agent20away,instance=agent20away-r3,period=20ms,"
                        + "flush=5000ms,stackdepth=256");
        assertThat(Setup.AGENT_20_AWAY.isAgent()).isTrue();
        // nothing reaches the broker, so there is nothing to read back
        assertThat(Setup.AGENT_20_AWAY.publishes()).isFalse();
        assertThat(Setup.AGENT_20_AWAY.childArguments()).containsExactly(OverheadWorkload.AWAIT_JFR);
    }

    @Test
    void aClosedPortIsUnreachableAndAListeningOneIsNot() throws Exception {
        int port;
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = server.getLocalPort();
            assertThat(AgentOverheadBenchmark.isUnreachable("127.0.0.1:" + port)).isFalse();
        }
        assertThat(AgentOverheadBenchmark.isUnreachable("127.0.0.1:" + port)).isTrue();
    }

    @Test
    void plainJfrRecordsWithTheSettingsFileAndSameDepthButNoAgent() {
        assertThat(options(Setup.JFR_20)).containsExactly("-XX:FlightRecorderOptions:stackdepth=256",
                "-XX:StartFlightRecording:settings=/x/execution-sample-20ms.jfc,maxage=2m,maxsize=32m");
        assertThat(Setup.JFR_20.childArguments()).containsExactly(OverheadWorkload.AWAIT_JFR);
        assertThat(Setup.executionSampleSettings(20))
                .contains("<event name=\"jdk.ExecutionSample\">", "<setting name=\"period\">20 ms</setting>")
                .doesNotContain("jdk.ObjectAllocationSample");
    }

    @Test
    void jfrExperimentsDifferFromPlainJfrOnlyInWhatRuns() {
        assertThat(options(Setup.JFR_NO_EVENTS)).containsExactly("-XX:FlightRecorderOptions:stackdepth=256",
                "-XX:StartFlightRecording:settings=/x/no-events.jfc,maxage=2m,maxsize=32m");
        assertThat(Setup.JFR_NO_EVENTS.childArguments()).containsExactly(OverheadWorkload.AWAIT_JFR);
        assertThat(Setup.noEventSettings()).contains("<configuration").doesNotContain("<event");
        // the stream is opened in the child, as the agent opens its own
        assertThat(options(Setup.JFR_20_STREAM)).containsExactly("-XX:FlightRecorderOptions:stackdepth=256");
        assertThat(Setup.JFR_20_STREAM.childArguments())
                .containsExactly(OverheadWorkload.STREAM_JFR, OverheadWorkload.AWAIT_JFR);
        assertThat(Setup.JFR_20_STREAM.publishes()).isFalse();
        // the stream's options, and one recording per agent flush interval (5 s here)
        assertThat(options(Setup.JFR_20_DUMP)).containsExactlyElementsOf(Stream.concat(
                options(Setup.JFR_20_STREAM).stream(), Stream.of("-D" + OverheadWorkload.DUMP_MILLIS + "=5000")).toList());
        assertThat(Setup.JFR_20_DUMP.childArguments())
                .containsExactly(OverheadWorkload.DUMP_JFR, OverheadWorkload.AWAIT_JFR);
        // initialised in the child, no recording to wait for
        assertThat(options(Setup.JFR_IDLE)).containsExactly("-XX:FlightRecorderOptions:stackdepth=256");
        assertThat(Setup.JFR_IDLE.childArguments()).containsExactly(OverheadWorkload.INIT_JFR);
    }

    @Test
    void preloadedJfrStartsAsPlainJfrAndAloneLoadsTheAgentsClasses() {
        // the class list goes to the child separately (Child.start); its JVM is plain JFR's
        assertThat(options(Setup.JFR_20_PRELOADED)).isEqualTo(options(Setup.JFR_20));
        assertThat(Setup.JFR_20_PRELOADED.childArguments()).isEqualTo(Setup.JFR_20.childArguments());
        assertThat(Setup.JFR_20_PRELOADED.publishes()).isFalse();
        for (Setup s : Setup.values()) {
            assertThat(s.preloadsAgentClasses()).as(s.label).isEqualTo(s == Setup.JFR_20_PRELOADED);
        }
        assertThat(Setup.ofId("jfr20preloaded")).isEqualTo(Setup.JFR_20_PRELOADED);
    }

    @Test
    void idsNameTheSetupsOfTheOptions() {
        for (Setup s : Setup.values()) {
            assertThat(Setup.ofId(s.id())).isEqualTo(s);
        }
        assertThat(Setup.JFR_NO_EVENTS.id()).isEqualTo("jfrnoevents");
    }
}
