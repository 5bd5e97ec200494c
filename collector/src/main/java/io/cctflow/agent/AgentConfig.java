package io.cctflow.agent;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import io.cctflow.agent.log.AgentLog;
import io.cctflow.agent.sampling.ThreadFilter;
import io.cctflow.core.config.ConfigException;
import io.cctflow.core.config.ConfigKey;
import io.cctflow.core.config.KeyTable;

/**
 * The agent's configuration: one typed, validated value per key.
 *
 * <p>Each key is read from, in order of precedence: the agent arguments
 * ({@code -javaagent:cctflow-collector.jar=key=value,key=value}), the system property
 * {@code cctflow.<key>}, the environment variable {@code CCTFLOW_<KEY>} (upper case, dots and
 * dashes as underscores), and the optional properties file named by the key {@value #CONFIG}
 * (itself read from the first three sources only; see {@link ConfigFile}). A value that does not
 * parse or validate is reported as a warning and the key falls back to its <em>default</em> (not
 * to a lower-precedence source): the agent must never stop the host from starting, and the
 * default is the documented, predictable outcome. An unreadable file is reported and ignored.
 *
 * <p>In the agent arguments a comma-separated part without {@code =} continues the previous
 * value, so {@code bootstrap.servers=a:9092,b:9092,service=x} gives two brokers.
 *
 * <p>Instances are immutable and thread-safe. See {@link #describeKeys()} for all keys.
 */
public final class AgentConfig {
    /** Kafka bootstrap servers, {@code host:port[,host:port...]}. */
    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    /** Kafka topic the sample batches go to. */
    public static final String TOPIC = "topic";
    /** Logical service name. */
    public static final String SERVICE = "service";
    /** Deployment version (git sha or release). */
    public static final String VERSION = "version";
    /** Instance id, unique per JVM run. */
    public static final String INSTANCE = "instance";
    /** JFR sampling period. */
    public static final String PERIOD = "period";
    /** Interval between two batches. */
    public static final String FLUSH = "flush";
    /** Maximum stack depth JFR records. */
    public static final String STACK_DEPTH = "stackdepth";
    /** Free labels, {@code key=value;key=value}. */
    public static final String LABELS = "labels";
    /** Bound on the encoded batches held in memory while they wait to be sent. */
    public static final String BUFFER = "buffer";
    /** Directory batches spill to when the memory buffer is full; unset: no spilling. */
    public static final String SPILL_DIR = "spill.dir";
    /** Bound on the bytes of spilled batches. */
    public static final String SPILL_MAX = "spill.max";
    /** Regex a thread's raw name must match to be sampled; unset: all threads. */
    public static final String THREADS_INCLUDE = "threads.include";
    /** Regex of raw thread names that are not sampled; unset: none. */
    public static final String THREADS_EXCLUDE = "threads.exclude";
    /** Properties file with further keys, lowest precedence; unset: none. */
    public static final String CONFIG = "config";
    /** Code fingerprints on or off. */
    public static final String MANIFEST = "manifest";
    /** Kafka topic the code manifests go to. */
    public static final String MANIFEST_TOPIC = "manifest.topic";
    /** Class-name prefixes that are not fingerprinted. */
    public static final String MANIFEST_EXCLUDE = "manifest.exclude";
    /** Bound on class files waiting to be fingerprinted, and on manifests waiting to be sent. */
    public static final String MANIFEST_BUFFER = "manifest.buffer";

    private static final ConfigKey<String> BOOTSTRAP_SERVERS_KEY = ConfigKey.of(BOOTSTRAP_SERVERS,
            ConfigParsers.bootstrapServers(), "localhost:9092",
            "Kafka bootstrap servers, host:port[,host:port...]");
    private static final ConfigKey<String> TOPIC_KEY = ConfigKey.of(TOPIC,
            ConfigParsers.name(), "cctflow.samples",
            "Kafka topic for sample batches");
    private static final ConfigKey<String> SERVICE_KEY = ConfigKey.of(SERVICE,
            ConfigParsers.name(), "unknown-service",
            "logical service name, e.g. checkout");
    private static final ConfigKey<String> VERSION_KEY = ConfigKey.of(VERSION,
            ConfigParsers.name(), "unknown",
            "deployment version: git sha or release");
    private static final ConfigKey<Long> PERIOD_KEY = ConfigKey.of(PERIOD,
            ConfigParsers.millis(1, 60_000), "20ms",
            "JFR sampling period per thread, 1ms..60s (20, 20ms, 1s); a period that is not a divisor of your periodic work's interval, e.g. 19ms, keeps samples out of lockstep with it");
    private static final ConfigKey<Long> FLUSH_KEY = ConfigKey.of(FLUSH,
            ConfigParsers.millis(100, 3_600_000), "10s",
            "interval between batches, 100ms..1h (10000, 10000ms, 10s)");
    private static final ConfigKey<Integer> STACK_DEPTH_KEY = ConfigKey.of(STACK_DEPTH,
            ConfigParsers.integer(1, 2048), "256",
            "frames JFR keeps per stack, 1..2048 (JFR's own default, 64, truncates most real stacks)");
    private static final ConfigKey<Map<String, String>> LABELS_KEY = ConfigKey.computed(LABELS,
            ConfigParsers::labels, Map::of, "(none)",
            "free labels, e.g. region=eu;zone=a");

    private static final ConfigKey<Long> BUFFER_KEY = ConfigKey.of(BUFFER,
            ConfigParsers.bytes(1L << 10, 1L << 30), "16m",
            "memory bound on encoded batches waiting to be sent, 1k..1g (65536, 64k, 16m); when full the oldest is dropped and counted, or spilled if spill.dir is set");
    private static final ConfigKey<Optional<Path>> SPILL_DIR_KEY = ConfigKey.computed(SPILL_DIR,
            ConfigParsers.path().map(Optional::of), Optional::empty, "(none)",
            "directory for batches and code manifests that do not fit their buffers (one subdirectory per execution and kind); unsent ones are also spilled at exit and sent first by the next run of the same service, version and instance");
    private static final ConfigKey<Long> SPILL_MAX_KEY = ConfigKey.of(SPILL_MAX,
            ConfigParsers.bytes(1L << 10, 1L << 40), "256m",
            "bound on the spilled bytes of one execution, for batches and for manifests each, 1k..1024g; when full the oldest spilled one is dropped and counted");
    private static final ConfigKey<Optional<Pattern>> THREADS_INCLUDE_KEY = ConfigKey.computed(THREADS_INCLUDE,
            ConfigParsers.regex().map(Optional::of), Optional::empty, "(all)",
            "Java regex; only threads whose whole raw name (before normalisation, e.g. http-nio-8080-exec-3) matches are sampled");
    private static final ConfigKey<Optional<Pattern>> THREADS_EXCLUDE_KEY = ConfigKey.computed(THREADS_EXCLUDE,
            ConfigParsers.regex().map(Optional::of), Optional::empty, "(none)",
            "Java regex; threads whose whole raw name matches are not sampled (applied after threads.include)");
    private static final ConfigKey<Optional<Path>> CONFIG_KEY = ConfigKey.computed(CONFIG,
            ConfigParsers.path().map(Optional::of), Optional::empty, "(none)",
            "properties file (UTF-8, key=value per line, keys as in this table) read after the environment, so lowest precedence; only the agent argument, system property or environment variable can name it");
    private static final ConfigKey<Boolean> MANIFEST_KEY = ConfigKey.of(MANIFEST,
            ConfigParsers.bool(), "true",
            "fingerprint the bytecode of every loaded method and publish CodeManifests (true or false)");
    private static final ConfigKey<String> MANIFEST_TOPIC_KEY = ConfigKey.of(MANIFEST_TOPIC,
            ConfigParsers.name(), "cctflow.manifests",
            "Kafka topic for code manifests, keyed by deployment (service, version)");
    private static final ConfigKey<List<String>> MANIFEST_EXCLUDE_KEY = ConfigKey.of(MANIFEST_EXCLUDE,
            ConfigParsers::prefixes, "java.,javax.,jdk.,sun.,com.sun.,io.cctflow.agent.",
            "class-name prefixes not fingerprinted, comma-separated; empty: fingerprint everything");
    private static final ConfigKey<Long> MANIFEST_BUFFER_KEY = ConfigKey.of(MANIFEST_BUFFER,
            ConfigParsers.bytes(64L << 10, 1L << 30), "8m",
            "memory bound on class files waiting to be fingerprinted (a class that does not fit is counted as dropped), and on manifests waiting to be sent, 64k..1g");

    private final String bootstrapServers;
    private final String topic;
    private final String service;
    private final String version;
    private final String instance;
    private final int periodMillis;
    private final long flushMillis;
    private final int stackDepth;
    private final Map<String, String> labels;
    private final long bufferBytes;
    private final Optional<Path> spillDir;
    private final long spillMaxBytes;
    private final ThreadFilter threads;
    private final Optional<Path> configFile;
    private final boolean manifest;
    private final String manifestTopic;
    private final List<String> manifestExclude;
    private final long manifestBufferBytes;

    private AgentConfig(Resolver r, Supplier<String> defaultInstance) {
        this.configFile = r.resolve(CONFIG_KEY);
        configFile.ifPresent(r::readFile);
        this.bootstrapServers = r.resolve(BOOTSTRAP_SERVERS_KEY);
        this.topic = r.resolve(TOPIC_KEY);
        this.service = r.resolve(SERVICE_KEY);
        this.version = r.resolve(VERSION_KEY);
        this.instance = r.resolve(instanceKey(defaultInstance));
        this.periodMillis = Math.toIntExact(r.resolve(PERIOD_KEY));
        this.flushMillis = r.resolve(FLUSH_KEY);
        this.stackDepth = r.resolve(STACK_DEPTH_KEY);
        this.labels = r.resolve(LABELS_KEY);
        this.bufferBytes = r.resolve(BUFFER_KEY);
        this.spillDir = r.resolve(SPILL_DIR_KEY);
        this.spillMaxBytes = r.resolve(SPILL_MAX_KEY);
        this.threads = new ThreadFilter(r.resolve(THREADS_INCLUDE_KEY), r.resolve(THREADS_EXCLUDE_KEY));
        this.manifest = r.resolve(MANIFEST_KEY);
        this.manifestTopic = r.resolve(MANIFEST_TOPIC_KEY);
        this.manifestExclude = r.resolve(MANIFEST_EXCLUDE_KEY);
        this.manifestBufferBytes = r.resolve(MANIFEST_BUFFER_KEY);
        r.warnUnknownArguments();
    }

    private static ConfigKey<String> instanceKey(Supplier<String> defaultInstance) {
        return ConfigKey.computed(INSTANCE, ConfigParsers.name(), defaultInstance, "<hostname>-<pid>",
                "instance id, unique per JVM run, e.g. the pod name");
    }

    private static List<ConfigKey<?>> keys() {
        return List.of(BOOTSTRAP_SERVERS_KEY, TOPIC_KEY, SERVICE_KEY, VERSION_KEY,
                instanceKey(() -> ""), PERIOD_KEY, FLUSH_KEY, STACK_DEPTH_KEY, LABELS_KEY, BUFFER_KEY,
                SPILL_DIR_KEY, SPILL_MAX_KEY, THREADS_INCLUDE_KEY, THREADS_EXCLUDE_KEY, MANIFEST_KEY,
                MANIFEST_TOPIC_KEY, MANIFEST_EXCLUDE_KEY, MANIFEST_BUFFER_KEY, CONFIG_KEY);
    }

    /**
     * Reads the configuration of this JVM from the agent arguments, system properties,
     * environment and the {@value #CONFIG} file if one is named; warnings go to {@link AgentLog}.
     *
     * @param agentArgs the string after {@code =} in {@code -javaagent:...=}; may be null
     */
    public static AgentConfig load(String agentArgs) {
        return load(agentArgs, System::getProperty, System::getenv,
                () -> LocalHost.name() + "-" + ProcessHandle.current().pid(), AgentLog::warn);
    }

    /**
     * Reads the configuration from the given sources; for tests and embedding.
     *
     * @param agentArgs agent arguments, may be null
     * @param systemProperties looks up a system property, null when unset
     * @param environment looks up an environment variable, null when unset
     * @param defaultInstance computes the default instance id; only called when it is needed
     * @param warnings receives one message per bad or unknown setting
     */
    public static AgentConfig load(String agentArgs, Function<String, String> systemProperties,
            Function<String, String> environment, Supplier<String> defaultInstance,
            Consumer<String> warnings) {
        Resolver r = new Resolver(parseArguments(agentArgs, warnings), systemProperties,
                environment, warnings);
        return new AgentConfig(r, defaultInstance);
    }

    /** Splits {@code key=value,key=value}; a part without {@code =} continues the previous value. */
    static Map<String, String> parseArguments(String agentArgs, Consumer<String> warnings) {
        Map<String, String> args = new LinkedHashMap<>();
        if (agentArgs == null || agentArgs.isBlank()) {
            return args;
        }
        String lastKey = null;
        for (String part : agentArgs.split(",")) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                if (lastKey == null) {
                    warnings.accept("ignoring agent argument '" + part + "': expected key=value");
                } else {
                    args.merge(lastKey, "," + part, String::concat);
                }
                continue;
            }
            lastKey = part.substring(0, eq).trim();
            args.put(lastKey, part.substring(eq + 1));
        }
        return args;
    }

    /**
     * All keys with their defaults as a Markdown table, for the usage text and the README.
     */
    public static String describeKeys() {
        return KeyTable.markdown(keys(), List.of(KeyTable.Column.KEY, KeyTable.Column.DEFAULT,
                KeyTable.Column.SYSTEM_PROPERTY, KeyTable.Column.ENVIRONMENT, KeyTable.Column.MEANING));
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public String topic() {
        return topic;
    }

    public String service() {
        return service;
    }

    public String version() {
        return version;
    }

    public String instance() {
        return instance;
    }

    /** JFR sampling period in milliseconds. */
    public int periodMillis() {
        return periodMillis;
    }

    /** Flush interval in milliseconds. */
    public long flushMillis() {
        return flushMillis;
    }

    public int stackDepth() {
        return stackDepth;
    }

    /** Labels in the order given; unmodifiable, never null. */
    public Map<String, String> labels() {
        return labels;
    }

    /** Memory bound of the send queue, in bytes. */
    public long bufferBytes() {
        return bufferBytes;
    }

    /** Where batches spill to; empty when spilling is off. */
    public Optional<Path> spillDir() {
        return spillDir;
    }

    /** Bound on the spilled bytes of this execution. */
    public long spillMaxBytes() {
        return spillMaxBytes;
    }

    /** Which threads are sampled, by raw name. */
    public ThreadFilter threads() {
        return threads;
    }

    /** The properties file that was named, whether or not it could be read; empty when none. */
    public Optional<Path> configFile() {
        return configFile;
    }

    /** Whether code fingerprints are collected and published. */
    public boolean manifest() {
        return manifest;
    }

    public String manifestTopic() {
        return manifestTopic;
    }

    /** Excluded class-name prefixes (with dots); unmodifiable, never null. */
    public List<String> manifestExclude() {
        return manifestExclude;
    }

    /** Memory bound of the class-file queue and of the manifest send queue, in bytes. */
    public long manifestBufferBytes() {
        return manifestBufferBytes;
    }

    @Override
    public String toString() {
        return BOOTSTRAP_SERVERS + "=" + bootstrapServers + ", " + TOPIC + "=" + topic + ", "
                + SERVICE + "=" + service + ", " + VERSION + "=" + version + ", " + INSTANCE + "="
                + instance + ", " + PERIOD + "=" + periodMillis + "ms, " + FLUSH + "=" + flushMillis
                + "ms, " + STACK_DEPTH + "=" + stackDepth + ", " + LABELS + "=" + labels + ", " + BUFFER
                + "=" + bufferBytes + ", " + SPILL_DIR + "=" + spillDir.map(Path::toString).orElse("(none)")
                + ", " + SPILL_MAX + "=" + spillMaxBytes + ", threads: " + threads + ", " + MANIFEST + "="
                + manifest + ", " + MANIFEST_TOPIC + "=" + manifestTopic + ", " + MANIFEST_EXCLUDE + "="
                + String.join(",", manifestExclude) + ", " + MANIFEST_BUFFER + "=" + manifestBufferBytes + ", "
                + CONFIG + "=" + configFile.map(Path::toString).orElse("(none)");
    }

    /** Looks each key up in the sources, in precedence order. Used once, by one thread. */
    private static final class Resolver {
        private final Map<String, String> args;
        private final Function<String, String> systemProperties;
        private final Function<String, String> environment;
        private final Consumer<String> warnings;
        // the config file's entries not yet looked up, and the file's name; empty until read
        private final Map<String, String> file = new LinkedHashMap<>();
        private Path fileName;

        Resolver(Map<String, String> args, Function<String, String> systemProperties,
                Function<String, String> environment, Consumer<String> warnings) {
            this.args = new LinkedHashMap<>(args);
            this.systemProperties = systemProperties;
            this.environment = environment;
            this.warnings = warnings;
        }

        void readFile(Path path) {
            fileName = path;
            file.putAll(ConfigFile.read(path, warnings));
            if (file.remove(CONFIG) != null) {
                warnings.accept("ignoring key '" + CONFIG + "' in config file " + path
                        + ": a config file cannot name another");
            }
        }

        <T> T resolve(ConfigKey<T> key) {
            String fromFile = file.remove(key.name());
            String raw = args.remove(key.name());
            String source = "agent argument " + key.name();
            if (raw == null) {
                raw = systemProperties.apply(key.systemProperty());
                source = "system property " + key.systemProperty();
            }
            if (raw == null) {
                raw = environment.apply(key.environmentVariable());
                source = "environment variable " + key.environmentVariable();
            }
            if (raw == null) {
                raw = fromFile;
                source = "key " + key.name() + " in config file " + fileName;
            }
            if (raw == null) {
                return key.defaultValue();
            }
            try {
                return key.parse(raw);
            } catch (ConfigException e) {
                warnings.accept("bad value '" + raw + "' for " + source + ": " + e.problem()
                        + "; using the default " + key.defaultText());
                return key.defaultValue();
            }
        }

        void warnUnknownArguments() {
            for (String unknown : args.keySet()) {
                warnings.accept("ignoring unknown agent argument '" + unknown + "'");
            }
            for (String unknown : file.keySet()) {
                warnings.accept("ignoring unknown key '" + unknown + "' in config file " + fileName);
            }
        }
    }
}
