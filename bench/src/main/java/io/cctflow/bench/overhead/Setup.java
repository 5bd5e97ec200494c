package io.cctflow.bench.overhead;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The ways the benchmark starts its host JVMs ({@code --setups}): the four the issue compares, our
 * agent while its broker is away, four experiments on what JFR's parts cost, one on what the
 * agent's classes cost without the agent, and two that attach the agent halfway through a round.
 */
enum Setup {
    /** No agent, no JFR: the baseline. */
    NONE("none", 0),
    /** Our shaded agent at its default period. */
    AGENT_20("agent 20 ms", 20),
    /** Our shaded agent at twice the rate. */
    AGENT_10("agent 10 ms", 10),
    /**
     * Our shaded agent at 20 ms whose broker never answers ({@link #UNREACHABLE_BROKER}) and whose
     * send queue ({@link #AWAY_BUFFER}) fills within a round: what the host pays while Kafka is away,
     * the producer retrying and the oldest batches dropped.
     */
    AGENT_20_AWAY("agent 20 ms, Kafka away", 20),
    /** A plain JFR recording with only jdk.ExecutionSample at 20 ms, same stack depth, no agent. */
    JFR_20("plain JFR 20 ms", 20),
    /**
     * Experiment: a JFR event stream opened in the child as our agent opens its own (jdk.ExecutionSample
     * alone at 20 ms, the same bounds), whose consumer touches nothing of the events: JFR's sampling
     * and streaming without our agent's work ({@link OverheadWorkload#STREAM_JFR}).
     */
    JFR_20_STREAM("JFR stream 20 ms, events unread", 20),
    /**
     * Experiment: the same sampling read without a stream, one recording per 20 s dumped and read
     * back, its events left unread ({@link OverheadWorkload#DUMP_JFR}).
     */
    JFR_20_DUMP("JFR dumps 20 ms, events unread", 20),
    /**
     * Experiment: {@link #JFR_20} whose child loads and links, before its workers start, every class
     * our agent loads ({@link AgentClassLoads}), and runs none of their code: what the mere
     * presence of the agent's classes does to the host's compiled code (class hierarchy
     * assumptions), apart from what the running agent does.
     */
    JFR_20_PRELOADED("plain JFR 20 ms, agent's classes loaded", 20),
    /** Experiment: JFR initialised in the child ({@code FlightRecorder.getFlightRecorder()}), no recording. */
    JFR_IDLE("JFR, no recording", 0),
    /** Experiment: a plain JFR recording with no event enabled (JFR's threads and flushes, no sampler). */
    JFR_NO_EVENTS("JFR recording, no events", 0),
    /**
     * A plain JFR 20 ms child like {@link #JFR_20}, into which our agent (20 ms) is attached halfway
     * through each round: the same JVM measured before and after, against a {@link #JFR_20} child that
     * gets no agent, so the JVM-to-JVM effect (code layout, JIT decisions) cancels.
     */
    JFR_20_ATTACHED("plain JFR 20 ms, agent 20 ms attached", 20),
    /**
     * A child without JFR like {@link #NONE}, into which our agent (20 ms) is attached halfway through
     * each round: the attach also starts JFR's sampler, so the same JVM before and after, against a
     * {@link #NONE} child that gets no agent, is the whole cost of the agent with its sampling.
     */
    NONE_ATTACHED("none, agent 20 ms attached", 20);

    /**
     * Where {@link #AGENT_20_AWAY}'s agent looks for its broker: port 1 of the loopback interface,
     * where nothing listens (checked before a run), so every connection is refused at once and the
     * producer retries with its backoff, as when a broker is down.
     */
    static final String UNREACHABLE_BROKER = "127.0.0.1:1";
    /** {@link #AGENT_20_AWAY}'s send queue: a few batches, so the bound is hit within a round. */
    static final String AWAY_BUFFER = "128k";

    /** The settings file of {@link #JFR_20}, in the run's directory. */
    static final String SAMPLES_JFC = "execution-sample-20ms.jfc";
    /** The settings file of {@link #JFR_NO_EVENTS}, in the run's directory. */
    static final String NO_EVENTS_JFC = "no-events.jfc";

    final String label;
    final int periodMillis;

    Setup(String label, int periodMillis) {
        this.label = label;
        this.periodMillis = periodMillis;
    }

    /** Started with {@code -javaagent}. */
    boolean isAgent() {
        return this == AGENT_20 || this == AGENT_10 || this == AGENT_20_AWAY;
    }

    /** Gets our agent attached halfway through each round. */
    boolean isAttached() {
        return this == JFR_20_ATTACHED || this == NONE_ATTACHED;
    }

    /**
     * The setup an {@linkplain #isAttached attached} one is compared with: started the same way, it
     * gets a placebo agent at the attach.
     *
     * @throws IllegalStateException for a setup that is not attached
     */
    Setup control() {
        return switch (this) {
            case JFR_20_ATTACHED -> JFR_20;
            case NONE_ATTACHED -> NONE;
            default -> throw new IllegalStateException(label + " gets no agent attached");
        };
    }

    /**
     * Whether this setup's children load the agent's classes at start ({@link AgentClassLoads})
     * whatever the run: {@link #JFR_20_PRELOADED}. (In runs that attach, every child does.)
     */
    boolean preloadsAgentClasses() {
        return this == JFR_20_PRELOADED;
    }

    /**
     * Runs our agent at some point of the round, with the broker reachable, so it publishes to
     * {@link #topic()}.
     */
    boolean publishes() {
        return (isAgent() && this != AGENT_20_AWAY) || isAttached();
    }

    /** Short name used in {@code --setups}, topics, versions and file names. */
    String id() {
        return name().toLowerCase(Locale.ROOT).replace("_", "");
    }

    /**
     * The setup named {@code id} (as {@link #id()}).
     *
     * @throws IllegalArgumentException naming the known ids if there is none
     */
    static Setup ofId(String id) {
        for (Setup s : values()) {
            if (s.id().equals(id)) {
                return s;
            }
        }
        List<String> ids = new ArrayList<>();
        for (Setup s : values()) {
            ids.add(s.id());
        }
        throw new IllegalArgumentException("unknown setup '" + id + "'; known: " + String.join(", ", ids));
    }

    /** The topic this setup's agents publish to (one per setup, so log sizes can be told apart). */
    String topic() {
        return "cctflow.bench." + id();
    }

    /** Arguments of {@link OverheadWorkload} after the thread count and counters file. */
    List<String> childArguments() {
        return switch (this) {
            case NONE, NONE_ATTACHED -> List.of();
            case JFR_IDLE -> List.of(OverheadWorkload.INIT_JFR);
            case JFR_20_STREAM -> List.of(OverheadWorkload.STREAM_JFR, OverheadWorkload.AWAIT_JFR);
            case JFR_20_DUMP -> List.of(OverheadWorkload.DUMP_JFR, OverheadWorkload.AWAIT_JFR);
            default -> List.of(OverheadWorkload.AWAIT_JFR);
        };
    }

    /**
     * JVM options for one child of this setup.
     *
     * @param bootstrap   the broker, for the agent
     * @param settingsDir where {@link #SAMPLES_JFC} and {@link #NO_EVENTS_JFC} are
     */
    List<String> jvmOptions(Path agentJar, String bootstrap, Path settingsDir, Duration flush, int stackDepth,
            int round) {
        List<String> options = new ArrayList<>();
        if (this == NONE || this == NONE_ATTACHED) {
            return options;
        }
        // the README's recommended flag; the agent also asks JFR for this depth itself
        options.add("-XX:FlightRecorderOptions:stackdepth=" + stackDepth);
        if (isAgent()) {
            options.add("-javaagent:" + agentJar.toAbsolutePath() + "="
                    + agentArguments(bootstrap, flush, stackDepth, round));
        } else if (this == JFR_20 || this == JFR_20_ATTACHED || this == JFR_20_PRELOADED || this == JFR_NO_EVENTS) {
            // like the agent's stream: in the disk repository, bounded to 2 minutes and 32 MiB
            Path jfc = settingsDir.resolve(this == JFR_NO_EVENTS ? NO_EVENTS_JFC : SAMPLES_JFC);
            options.add("-XX:StartFlightRecording:settings=" + jfc.toAbsolutePath() + ",maxage=2m,maxsize=32m");
        } else if (this == JFR_20_DUMP) {
            // one recording per agent flush interval, read once per interval as the agent sends
            options.add("-D" + OverheadWorkload.DUMP_MILLIS + "=" + flush.toMillis());
        }
        return options;
    }

    /**
     * The agent's arguments for one child of this setup (with {@code -javaagent} or when attached):
     * its own topic, version and instance, this setup's period; {@link #AGENT_20_AWAY}'s the
     * unreachable broker and the small send queue instead of {@code bootstrap}.
     */
    String agentArguments(String bootstrap, Duration flush, int stackDepth, int round) {
        return agentArguments(topic(), bootstrap, flush, stackDepth, round);
    }

    /** As {@link #agentArguments(String, Duration, int, int)}, publishing to {@code topic}. */
    String agentArguments(String topic, String bootstrap, Duration flush, int stackDepth, int round) {
        String broker = this == AGENT_20_AWAY ? UNREACHABLE_BROKER + ",buffer=" + AWAY_BUFFER : bootstrap;
        return "bootstrap.servers=" + broker + ",topic=" + topic + ",service=overhead-bench,version=" + id()
                + ",instance=" + id() + "-r" + round + ",period=" + periodMillis + "ms"
                + ",flush=" + OverheadOptions.agentDuration(flush) + ",stackdepth=" + stackDepth;
    }

    /** A .jfc that enables jdk.ExecutionSample alone, at {@code periodMillis}, as the agent does. */
    static String executionSampleSettings(int periodMillis) {
        return settings("jdk.ExecutionSample only, as the cctflow agent records it", String.join("\n",
                "  <event name=\"jdk.ExecutionSample\">",
                "    <setting name=\"enabled\">true</setting>",
                "    <setting name=\"period\">" + periodMillis + " ms</setting>",
                "  </event>"));
    }

    /** A .jfc that enables no event (every event is off unless a settings file enables it). */
    static String noEventSettings() {
        return settings("no events: JFR running without sampling", "");
    }

    private static String settings(String description, String events) {
        return String.join("\n",
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                "<configuration version=\"2.0\" label=\"cctflow-bench\" description=\"" + description + "\">",
                events,
                "</configuration>",
                "");
    }
}
