package io.cctflow.agent;

import static io.cctflow.agent.ShippedJar.JAR;
import static io.cctflow.agent.ShippedJar.LOGS;
import static io.cctflow.agent.ShippedJar.TEST_CLASSES;
import static io.cctflow.agent.ShippedJar.java;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.sun.tools.attach.VirtualMachine;

import io.cctflow.schema.SampleBatch;
import io.cctflow.servers.TestServers;

/**
 * The shaded jar as it ships, against a real broker: attached at runtime to a running JVM with
 * the Attach API (twice: the second attach must not start a second agent), attached to a JVM that
 * already records with JFR at a smaller stack depth, and run as the import CLI.
 */
class AgentAttachIT {

    @Test
    @Timeout(240)
    void attachedAtRuntimeItPublishesBatchesAndASecondAttachStartsNoSecondAgent() throws Exception {
        String topic = "attach-" + UUID.randomUUID();
        TestServers.get().createTopic(topic, 1);
        Files.createDirectories(LOGS);
        Path err = LOGS.resolve("attach.stderr");
        Process host = new ProcessBuilder(java(), "-Xmx256m", "-cp", TEST_CLASSES.toString(),
                AttachTarget.class.getName())
                .redirectError(err.toFile())
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(host.getInputStream(),
                    StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("ready");
            String args = "bootstrap.servers=" + TestServers.get().kafkaBootstrapServers()
                    + ",topic=" + topic + ",service=attached,version=v1,instance=host-1,flush=1000";

            VirtualMachine vm = VirtualMachine.attach(String.valueOf(host.pid()));
            try {
                vm.loadAgent(JAR.toString(), args);
                vm.loadAgent(JAR.toString(), args);
            } finally {
                vm.detach();
            }

            List<SampleBatch> batches = consume(topic, list -> list.stream().anyMatch(b ->
                    b.getStacks().stream().anyMatch(s -> s.getThread().equals("main"))));
            assertThat(batches).allSatisfy(b -> {
                assertThat(b.getInstance().getService()).isEqualTo("attached");
                assertThat(b.getInstance().getInstanceId()).isEqualTo("host-1");
                assertThat(b.getInstance().getPid()).isEqualTo(host.pid());
            });
            // two agents would each number their batches from 0
            assertThat(batches).extracting(SampleBatch::getSequence).doesNotHaveDuplicates();

            host.getOutputStream().close();
            assertThat(host.waitFor(60, TimeUnit.SECONDS)).as("host exits").isTrue();
            assertThat(out.readLine()).isEqualTo("done 1 sampler threads true");
            assertThat(host.exitValue()).isZero();
        } finally {
            host.destroyForcibly();
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(stderr.split("\\[cctflow-agent\\] started: ", -1)).as(stderr).hasSize(2);
        assertThat(stderr).contains("[cctflow-agent] WARN agent already running in this JVM;"
                + " ignoring the second start");
        // the host ran without JFR, so the agent's JFR start throws away its compiled code
        assertThat(stderr).contains("[cctflow-agent] attached to a JVM where JFR was not running: starting"
                + " JFR redefines some JDK classes, which makes this JVM recompile all of its code once (to"
                + " avoid it, attach to JVMs started with -XX:StartFlightRecording, or use -javaagent)");
    }

    /**
     * Attached to a JVM that records with JFR at its default depth (64 frames), the agent cannot
     * change the depth and says so at once, with the flag that fixes it.
     */
    @Test
    @Timeout(180)
    void attachedToAJvmThatRecordsAtASmallerDepthItSaysSoWithTheFlag() throws Exception {
        Files.createDirectories(LOGS);
        Path err = LOGS.resolve("attach-jfr-running.stderr");
        Process host = new ProcessBuilder(java(), "-Xmx256m", "-XX:StartFlightRecording", "-cp",
                TEST_CLASSES.toString(), AttachTarget.class.getName())
                .redirectError(err.toFile())
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(host.getInputStream(),
                    StandardCharsets.UTF_8));
            // JFR's start-up message comes first on stdout
            assertThat(out.lines().filter(line -> line.equals("ready")).findFirst()).isPresent();
            VirtualMachine vm = VirtualMachine.attach(String.valueOf(host.pid()));
            try {
                vm.loadAgent(JAR.toString(), "bootstrap.servers=127.0.0.1:1,service=t,flush=1000");
            } finally {
                vm.detach();
            }
            // the agent checks the depth on its own thread, as it starts
            assertThat(awaitLog(err, "[cctflow-agent] started: ", Duration.ofSeconds(60)))
                    .as("the agent started").isTrue();
            host.getOutputStream().close();
            assertThat(host.waitFor(60, TimeUnit.SECONDS)).as("host exits").isTrue();
            assertThat(host.exitValue()).isZero();
        } finally {
            host.destroyForcibly();
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(stderr).contains("[cctflow-agent] WARN JFR was already running when the agent"
                + " started, with a stack depth of 64 frames, which cannot change now: deeper stacks are"
                + " truncated (the batches' stats count them); restart the JVM with"
                + " -XX:FlightRecorderOptions:stackdepth=256");
        // JFR started with the JVM: the attach starts nothing that throws its code away
        assertThat(stderr).doesNotContain("attached to a JVM where JFR was not running");
    }

    @Test
    @Timeout(180)
    void theJarRunsTheImportCommandAgainstARealBroker() throws Exception {
        String topic = "import-jar-" + UUID.randomUUID();
        TestServers.get().createTopic(topic, 1);
        Files.createDirectories(LOGS);
        Path stacks = Files.writeString(LOGS.resolve("jar-import.collapsed"),
                "[main];java/lang/Thread.run;a/B.c:12 4\n");

        Process p = new ProcessBuilder(java(), "-jar", JAR.toString(), "import",
                "--bootstrap-servers", TestServers.get().kafkaBootstrapServers(), "--topic", topic,
                "--service", "jar", stacks.toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();

        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).contains("1 files imported, 0 failed; 4 samples in 1 acknowledged batches");
        List<SampleBatch> batches = consume(topic, list -> !list.isEmpty());
        assertThat(batches).singleElement().satisfies(b -> {
            assertThat(b.getInstance().getInstanceId()).isEqualTo("jar-import");
            assertThat(b.getStacks()).singleElement().satisfies(s -> assertThat(s.getCount()).isEqualTo(4));
        });
    }

    @Test
    @Timeout(60)
    void theJarsImportCommandRejectsBadArgumentsWithExitCodeTwo() throws Exception {
        Process p = new ProcessBuilder(java(), "-jar", JAR.toString(), "import", "--window",
                "fast", ".").redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(output).isEqualTo("cctflow import: bad value 'fast' for option --window: not a"
                + " duration (use e.g. 20, 20ms, 10s, 1m)" + System.lineSeparator());
    }

    /** Whether {@code log} contains {@code text} within {@code timeout}, looking every 100 ms. */
    private static boolean awaitLog(Path log, String text, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.readString(log, StandardCharsets.UTF_8).contains(text)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        return true;
    }

    private static List<SampleBatch> consume(String topic, Predicate<List<SampleBatch>> done) {
        return SampleTopic.readUntil(topic, done, Duration.ofSeconds(90));
    }

}
