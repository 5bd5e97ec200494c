package io.cctflow.bench.overhead;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The four ways the benchmark starts its host JVMs. */
enum Setup {
    /** No agent, no JFR: the baseline. */
    NONE("none", 0),
    /** Our shaded agent at its default period. */
    AGENT_20("agent 20 ms", 20),
    /** Our shaded agent at twice the rate. */
    AGENT_10("agent 10 ms", 10),
    /** A plain JFR recording with only jdk.ExecutionSample at 20 ms, same stack depth, no agent. */
    JFR_20("plain JFR 20 ms", 20);

    final String label;
    final int periodMillis;

    Setup(String label, int periodMillis) {
        this.label = label;
        this.periodMillis = periodMillis;
    }

    boolean isAgent() {
        return this == AGENT_20 || this == AGENT_10;
    }

    /** Short name used in topics, versions and file names. */
    String id() {
        return name().toLowerCase(java.util.Locale.ROOT).replace("_", "");
    }

    /** The topic this setup's agents publish to (one per setup, so log sizes can be told apart). */
    String topic() {
        return "cctflow.bench." + id();
    }

    /**
     * JVM options for one child of this setup.
     *
     * @param bootstrap the broker, for the agent
     * @param jfc       the settings file of the plain JFR recording
     */
    List<String> jvmOptions(Path agentJar, String bootstrap, Path jfc, Duration flush, int stackDepth,
            int round) {
        List<String> options = new ArrayList<>();
        if (this == NONE) {
            return options;
        }
        // the README's recommended flag; the agent also asks JFR for this depth itself
        options.add("-XX:FlightRecorderOptions:stackdepth=" + stackDepth);
        if (isAgent()) {
            options.add("-javaagent:" + agentJar.toAbsolutePath() + "=bootstrap.servers=" + bootstrap
                    + ",topic=" + topic() + ",service=overhead-bench,version=" + id()
                    + ",instance=" + id() + "-r" + round + ",period=" + periodMillis + "ms"
                    + ",flush=" + OverheadOptions.agentDuration(flush) + ",stackdepth=" + stackDepth);
        } else {
            // like the agent's stream: in the disk repository, bounded to 2 minutes and 32 MiB
            options.add("-XX:StartFlightRecording:settings=" + jfc.toAbsolutePath() + ",maxage=2m,maxsize=32m");
        }
        return options;
    }

    /** A .jfc that enables jdk.ExecutionSample alone, at {@code periodMillis}, as the agent does. */
    static String executionSampleSettings(int periodMillis) {
        return String.join("\n",
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                "<configuration version=\"2.0\" label=\"cctflow-bench\""
                        + " description=\"jdk.ExecutionSample only, as the cctflow agent records it\">",
                "  <event name=\"jdk.ExecutionSample\">",
                "    <setting name=\"enabled\">true</setting>",
                "    <setting name=\"period\">" + periodMillis + " ms</setting>",
                "  </event>",
                "</configuration>",
                "");
    }
}
