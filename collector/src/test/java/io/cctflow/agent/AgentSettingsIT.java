package io.cctflow.agent;

import static io.cctflow.agent.ShippedJar.JAR;
import static io.cctflow.agent.ShippedJar.LOGS;
import static io.cctflow.agent.ShippedJar.TEST_CLASSES;
import static io.cctflow.agent.ShippedJar.java;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import io.cctflow.servers.TestServers;

/**
 * The shaded jar as it ships against a real broker. Configured only through a properties file:
 * the file's sampling period, thread exclude filter and stack depth reach the batches, and the
 * batches' stats carry the truncation warning with the flag that fixes it. With an include filter
 * as a system property: only the named thread is sampled. The sampling period is the one JFR's
 * recording runs with. With nothing sampled, a stats-only heartbeat arrives every flush interval.
 */
class AgentSettingsIT {

    @Test
    @Timeout(240)
    void settingsFromAConfigFileReachTheBatches() throws Exception {
        String topic = "settings-" + UUID.randomUUID();
        TestServers.get().createTopic(topic, 1);
        Files.createDirectories(LOGS);
        Path config = Files.writeString(LOGS.resolve("settings.properties"), String.join("\n",
                "bootstrap.servers=" + TestServers.get().kafkaBootstrapServers(),
                "topic=" + topic,
                "service=settings",
                "flush=1000",
                "period=19ms",
                "stackdepth=8",
                "threads.exclude=pool-\\\\d+-thread-\\\\d+",
                ""), StandardCharsets.UTF_8);
        Run run = runHost("settings", topic, List.of("-Dcctflow.config=" + config), "");
        List<SampleBatch> batches = run.batches();
        String stderr = run.stderr();
        assertThat(stderr).contains("config=" + config, "period=19ms", "stackdepth=8",
                "exclude pool-\\d+-thread-\\d+").doesNotContain("WARN bad value", "unknown key");

        assertThat(batches).allSatisfy(b -> {
            assertThat(b.getInstance().getService()).isEqualTo("settings");
            assertThat(b.getSamplingPeriodMillis()).isEqualTo(19);
            assertThat(b.getStacks()).extracting(Stack::getThread)
                    .noneMatch(t -> t.startsWith("pool-"));
        });
        // JFR cuts a stack at exactly the depth in effect; main's busy stacks are deeper. (The
        // first batch sampling main may hold only main's shallow start-up, before the busy loop.)
        assertThat(batches).flatExtracting(SampleBatch::getStacks).filteredOn(Stack::getTruncated)
                .isNotEmpty().allSatisfy(s -> assertThat(s.getFrames()).hasSize(8));
        SampleBatch withMain = batches.stream()
                .filter(b -> b.getStacks().stream()
                        .anyMatch(s -> s.getThread().equals("main") && s.getTruncated()))
                .findFirst().orElseThrow();
        assertThat(withMain.getStats().getStackDepth()).isEqualTo(8);
        assertThat(withMain.getStats().getTruncationWarning()).contains(
                "in this batch were truncated at JFR's stack depth of 8 frames",
                "-XX:FlightRecorderOptions:stackdepth=16 ");
        // the first batch with a warning (in sequence order) is the one the log reports
        String firstWarning = batches.stream().map(b -> b.getStats().getTruncationWarning())
                .filter(w -> !w.isEmpty()).findFirst().orElseThrow();
        assertThat(stderr).contains("WARN " + firstWarning);
    }

    /**
     * {@code threads.include}, here as a system property over an agent argument that names no
     * filter: only the matching thread is sampled, the other busy one (a pool thread) never.
     */
    @Test
    @Timeout(240)
    void anIncludeFilterSamplesOnlyTheThreadsItNames() throws Exception {
        String topic = "settings-include-" + UUID.randomUUID();
        TestServers.get().createTopic(topic, 1);
        Run run = runHost("include", topic, List.of("-Dcctflow.threads.include=ma.n"),
                "=bootstrap.servers=" + TestServers.get().kafkaBootstrapServers() + ",topic=" + topic
                        + ",service=include,flush=1000");
        assertThat(run.stderr()).contains("include ma.n").doesNotContain("WARN bad value", "unknown key");
        assertThat(run.batches()).flatExtracting(SampleBatch::getStacks).extracting(Stack::getThread)
                .isNotEmpty().containsOnly("main");
    }

    /**
     * The period the agent is given is the one JFR samples at: the setting of the recording JFR
     * runs, read in the host, not only the number the batches carry (which the agent copies from
     * its configuration). 19 ms, so that JFR's default of 20 ms (or any fixed value) would fail.
     */
    @Test
    @Timeout(240)
    void thePeriodIsTheOneJfrSamplesAt() throws Exception {
        String topic = "settings-period-" + UUID.randomUUID();
        TestServers.get().createTopic(topic, 1);
        Run run = runHost("period", topic, List.of(), "=bootstrap.servers="
                + TestServers.get().kafkaBootstrapServers() + ",topic=" + topic
                + ",service=period,flush=1000,period=19ms");

        assertThat(run.stderr()).contains("period=19ms").doesNotContain("WARN bad value");
        List<String> settings = run.stdout().lines().filter(l -> l.startsWith("jfr setting ")).toList();
        assertThat(settings).as("jdk.ExecutionSample settings of the running recordings")
                .anyMatch(l -> l.endsWith(": jdk.ExecutionSample#enabled=true"));
        List<Duration> periods = settings.stream().filter(l -> l.contains(": jdk.ExecutionSample#period="))
                .map(l -> jfrTimespan(l.substring(l.indexOf('=') + 1))).toList();
        assertThat(periods).as("the sampling period of every running recording: %s", settings)
                .containsExactly(Duration.ofMillis(19));
        assertThat(run.batches()).extracting(SampleBatch::getSamplingPeriodMillis).containsOnly(19);
    }

    /**
     * A JVM in which nothing is sampled (here: a thread filter no thread matches) still sends one
     * batch per flush interval, a stats-only heartbeat, so its counters keep arriving and it is
     * not taken for a dead one.
     */
    @Test
    @Timeout(240)
    void anIdleJvmSendsAStatsOnlyHeartbeatEveryFlushInterval() throws Exception {
        String topic = "settings-idle-" + UUID.randomUUID();
        TestServers.get().createTopic(topic, 1);
        // until a heartbeat reports the acknowledgement of an earlier one
        Run run = runHost("idle", topic, List.of(), "=bootstrap.servers="
                + TestServers.get().kafkaBootstrapServers() + ",topic=" + topic
                + ",service=idle,flush=1000,threads.include=no-thread-is-named-so",
                list -> list.size() >= 3 && list.get(list.size() - 1).getStats().getBatchesSent() > 0);

        List<SampleBatch> batches = run.batches();
        assertThat(batches).extracting(SampleBatch::getSequence)
                .isEqualTo(LongStream.range(0, batches.size()).boxed().toList());
        assertThat(batches).allSatisfy(b -> {
            assertThat(b.getInstance().getService()).isEqualTo("idle");
            assertThat(b.getStacks()).isEmpty();
            assertThat(b.getMethods()).isEmpty();
            assertThat(b.getStats()).isNotNull();
            assertThat(b.getStats().getSamplesSeen()).isZero();
            assertThat(b.getStats().getBatchesDropped()).isZero();
        });
        // one window after the other: every interval is reported
        for (int i = 1; i < batches.size(); i++) {
            assertThat(batches.get(i).getWindowStartMillis()).isEqualTo(batches.get(i - 1).getWindowEndMillis());
        }
        assertThat(batches.get(batches.size() - 1).getStats().getBytesSent()).isPositive();
    }

    /** A JFR timespan setting, e.g. {@code 19000000 ns} or {@code 19 ms}. */
    private static Duration jfrTimespan(String value) {
        String[] parts = value.trim().split(" ");
        assertThat(parts).as("timespan '%s'", value).hasSize(2);
        long n = Long.parseLong(parts[0]);
        return switch (parts[1]) {
            case "ns" -> Duration.ofNanos(n);
            case "us" -> Duration.ofNanos(n * 1_000);
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> throw new AssertionError("unknown unit in timespan '" + value + "'");
        };
    }

    /** A finished host: its exit was clean, its batches, its stdout and its stderr. */
    private record Run(List<SampleBatch> batches, String stdout, String stderr) {
    }

    /**
     * Runs {@link StoppableWorkload} with the shaded agent ({@code agentArgs} after
     * {@code -javaagent:jar}) until at least two batches sampled {@code main} in its busy loop,
     * then stops it.
     * StoppableWorkload keeps main and pool-1-thread-1 busy about 13 and 20 frames deep.
     */
    private static Run runHost(String name, String topic, List<String> jvmOptions, String agentArgs)
            throws Exception {
        return runHost(name, topic, jvmOptions, agentArgs,
                list -> list.stream().filter(AgentSettingsIT::mainIsBusy).count() >= 2);
    }

    /** As above, until {@code done} holds for the batches received. */
    private static Run runHost(String name, String topic, List<String> jvmOptions, String agentArgs,
            Predicate<List<SampleBatch>> done) throws Exception {
        Files.createDirectories(LOGS);
        Path stop = LOGS.resolve(name + ".stop");
        Files.deleteIfExists(stop);
        Path out = LOGS.resolve(name + ".stdout");
        Path err = LOGS.resolve(name + ".stderr");
        List<String> command = new ArrayList<>(List.of(java(), "-Xmx256m"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-javaagent:" + JAR + agentArgs, "-cp", TEST_CLASSES.toString(),
                StoppableWorkload.class.getName(), stop.toString(), "120"));
        Process host = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        List<SampleBatch> batches;
        try {
            batches = consume(topic, done);
            Files.writeString(stop, "stop");
            assertThat(host.waitFor(60, TimeUnit.SECONDS)).as("host exits").isTrue();
        } finally {
            host.destroyForcibly();
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(host.exitValue()).as(stderr).isZero();
        return new Run(batches, Files.readString(out, StandardCharsets.UTF_8), stderr);
    }

    /** Whether the batch sampled main in its busy loop (not only its start-up before it). */
    private static boolean mainIsBusy(SampleBatch b) {
        return b.getStacks().stream().anyMatch(s -> s.getThread().equals("main")
                && s.getFrames().stream().anyMatch(
                        f -> b.getMethods().get(f).getMethodName().equals("recurse")));
    }

    private static List<SampleBatch> consume(String topic, Predicate<List<SampleBatch>> done) {
        return SampleTopic.readUntil(topic, done, Duration.ofSeconds(120));
    }

}
