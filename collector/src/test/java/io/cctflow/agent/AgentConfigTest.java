package io.cctflow.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentConfigTest {
    private final Map<String, String> sysProps = new HashMap<>();
    private final Map<String, String> env = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();

    @TempDir
    Path dir;

    private AgentConfig load(String args) {
        return AgentConfig.load(args, sysProps::get, env::get, () -> "host-42", warnings::add);
    }

    @Test
    void usesDocumentedDefaultsWhenNothingIsSet() {
        AgentConfig c = load(null);

        assertThat(c.bootstrapServers()).isEqualTo("localhost:9092");
        assertThat(c.topic()).isEqualTo("cctflow.samples");
        assertThat(c.service()).isEqualTo("unknown-service");
        assertThat(c.version()).isEqualTo("unknown");
        assertThat(c.instance()).isEqualTo("host-42");
        assertThat(c.periodMillis()).isEqualTo(20);
        assertThat(c.flushMillis()).isEqualTo(10_000);
        assertThat(c.stackDepth()).isEqualTo(256);
        assertThat(c.labels()).isEmpty();
        assertThat(c.bufferBytes()).isEqualTo(16L << 20);
        assertThat(c.spillDir()).isEmpty();
        assertThat(c.spillMaxBytes()).isEqualTo(256L << 20);
        assertThat(warnings).isEmpty();
    }

    @Test
    void codeFingerprintsAreOnByDefaultAndSkipTheJdkAndTheAgent() {
        AgentConfig c = load(null);

        assertThat(c.manifest()).isTrue();
        assertThat(c.manifestTopic()).isEqualTo("cctflow.manifests");
        assertThat(c.manifestExclude()).containsExactly("java.", "javax.", "jdk.", "sun.", "com.sun.",
                "io.cctflow.agent.");
        assertThat(c.manifestBufferBytes()).isEqualTo(8L << 20);
    }

    @Test
    void manifestKeysParseListsAndBooleansAndFallBackOnBadValues() {
        // a part without '=' continues the previous value, so a prefix list needs no quoting
        AgentConfig c = load("manifest=FALSE,manifest.exclude=com.acme.gen.,org.hibernate.,service=x");
        assertThat(c.manifest()).isFalse();
        assertThat(c.manifestExclude()).containsExactly("com.acme.gen.", "org.hibernate.");
        assertThat(c.service()).isEqualTo("x");
        assertThat(load("manifest.exclude=").manifestExclude()).isEmpty();
        assertThat(warnings).isEmpty();

        AgentConfig bad = load("manifest=maybe,manifest.exclude=com/acme/,manifest.buffer=1k");
        assertThat(bad.manifest()).isTrue();
        assertThat(bad.manifestExclude()).contains("java.");
        assertThat(bad.manifestBufferBytes()).isEqualTo(8L << 20);
        assertThat(warnings).hasSize(3).anySatisfy(w -> assertThat(w).contains("manifest", "not a boolean"))
                .anySatisfy(w -> assertThat(w).contains("contains '/'"))
                .anySatisfy(w -> assertThat(w).contains("manifest.buffer"));
    }

    @Test
    void sizesTakeBytesOrBinaryUnits() {
        assertThat(load("buffer=65536").bufferBytes()).isEqualTo(65_536);
        assertThat(load("buffer=64k").bufferBytes()).isEqualTo(64 << 10);
        assertThat(load("buffer=2M").bufferBytes()).isEqualTo(2 << 20);
        assertThat(load("buffer=1g").bufferBytes()).isEqualTo(1 << 30);
        assertThat(load("spill.max=10g").spillMaxBytes()).isEqualTo(10L << 30);
        assertThat(warnings).isEmpty();
    }

    @Test
    void spillDirectoryIsOffUnlessSet() {
        env.put("CCTFLOW_SPILL_DIR", "/var/lib/cctflow/spill");

        assertThat(load("").spillDir()).contains(java.nio.file.Path.of("/var/lib/cctflow/spill"));
        assertThat(warnings).isEmpty();
    }

    @Test
    void badSizesWarnAndFallBackToTheDefault() {
        AgentConfig c = load("buffer=lots,spill.max=2k");
        AgentConfig tooSmall = load("buffer=10");
        AgentConfig tooBig = load("buffer=9999999999g");

        assertThat(c.bufferBytes()).isEqualTo(16L << 20);
        assertThat(c.spillMaxBytes()).isEqualTo(2 << 10);
        assertThat(tooSmall.bufferBytes()).isEqualTo(16L << 20);
        assertThat(tooBig.bufferBytes()).isEqualTo(16L << 20);
        assertThat(warnings).hasSize(3);
        assertThat(warnings.get(0)).contains("bad value 'lots' for agent argument buffer", "not a size",
                "using the default 16m");
        assertThat(warnings.get(1)).contains("must be between 1024 bytes and");
        assertThat(warnings.get(2)).contains("must be at most");
    }

    @Test
    void agentArgumentsWinOverSystemPropertiesWhichWinOverEnvironment() {
        env.put("CCTFLOW_SERVICE", "from-env");
        env.put("CCTFLOW_VERSION", "v-env");
        env.put("CCTFLOW_TOPIC", "t-env");
        sysProps.put("cctflow.service", "from-sysprop");
        sysProps.put("cctflow.version", "v-sysprop");

        AgentConfig c = load("service=from-args");

        assertThat(c.service()).isEqualTo("from-args");
        assertThat(c.version()).isEqualTo("v-sysprop");
        assertThat(c.topic()).isEqualTo("t-env");
        assertThat(warnings).isEmpty();
    }

    @Test
    void environmentVariableNamesAreUpperCaseWithUnderscores() {
        env.put("CCTFLOW_BOOTSTRAP_SERVERS", "kafka:9092");
        env.put("CCTFLOW_STACKDEPTH", "512");

        AgentConfig c = load("");

        assertThat(c.bootstrapServers()).isEqualTo("kafka:9092");
        assertThat(c.stackDepth()).isEqualTo(512);
    }

    @Test
    void bootstrapServersMustBeHostsAndPorts() {
        assertThat(load("bootstrap.servers=kafka-0.kafka.svc:9092, 10.0.0.7:9093,[::1]:9094").bootstrapServers())
                .isEqualTo("kafka-0.kafka.svc:9092, 10.0.0.7:9093,[::1]:9094");
        assertThat(load("bootstrap.servers=SASL_SSL://kafka:9093").bootstrapServers()).isEqualTo("SASL_SSL://kafka:9093");
        assertThat(warnings).isEmpty();

        for (String bad : new String[] {"kafka", "kafka:", "kafka:0", "kafka:65536", "kafka:9092,", "a b:9092"}) {
            warnings.clear();
            sysProps.put("cctflow.bootstrap.servers", bad);
            assertThat(load("").bootstrapServers()).as(bad).isEqualTo("localhost:9092");
            assertThat(warnings).as(bad).singleElement().asString()
                    .contains("bad value '" + bad + "'", "cctflow.bootstrap.servers", "is not host:port");
        }
    }

    @Test
    void badValueFallsBackToTheDefaultWithAWarningNamingKeyAndSource() {
        AgentConfig c = load("period=fast,stackdepth=0,service=ok");

        assertThat(c.periodMillis()).isEqualTo(20);
        assertThat(c.stackDepth()).isEqualTo(256);
        assertThat(c.service()).isEqualTo("ok");
        assertThat(warnings).hasSize(2);
        assertThat(warnings.get(0)).contains("'fast'", "agent argument period", "default 20ms");
        assertThat(warnings.get(1)).contains("stackdepth", "between 1 and 2048");
    }

    @Test
    void badValueFallsBackToTheDefaultNotToALowerPrecedenceSource() {
        sysProps.put("cctflow.flush", "5s");

        AgentConfig c = load("flush=soon");

        assertThat(c.flushMillis()).isEqualTo(10_000);
        assertThat(warnings).singleElement().asString().contains("flush");
    }

    @Test
    void badValueInTheEnvironmentIsReportedWithTheVariableName() {
        env.put("CCTFLOW_PERIOD", "-5");

        assertThat(load(null).periodMillis()).isEqualTo(20);
        assertThat(warnings).singleElement().asString().contains("CCTFLOW_PERIOD");
    }

    @Test
    void durationsAcceptBareMillisMillisSecondsAndMinutes() {
        assertThat(load("flush=10000").flushMillis()).isEqualTo(10_000);
        assertThat(load("flush=10000ms").flushMillis()).isEqualTo(10_000);
        assertThat(load("flush=10s").flushMillis()).isEqualTo(10_000);
        assertThat(load("flush=2m").flushMillis()).isEqualTo(120_000);
        assertThat(load("period=20").periodMillis()).isEqualTo(20);
        assertThat(load("period=7ms").periodMillis()).isEqualTo(7);
        assertThat(load("period= 10 ms ").periodMillis()).isEqualTo(10);
        assertThat(warnings).isEmpty();
    }

    @Test
    void durationsOutsideTheirRangeAreRejected() {
        assertThat(load("flush=50ms").flushMillis()).isEqualTo(10_000);
        assertThat(load("period=2m").periodMillis()).isEqualTo(20);
        assertThat(load("period=10h").periodMillis()).isEqualTo(20);
        assertThat(warnings).hasSize(3);
    }

    @Test
    void labelsParseAsOrderedKeyValuePairs() {
        AgentConfig c = load("labels=region=eu;zone=a; ns = shop ;");

        assertThat(c.labels()).containsExactly(Map.entry("region", "eu"), Map.entry("zone", "a"),
                Map.entry("ns", "shop"));
    }

    @Test
    void malformedLabelsFallBackToNoLabels() {
        assertThat(load("labels=region").labels()).isEmpty();
        assertThat(load("labels=a=1;a=2").labels()).isEmpty();
        assertThat(warnings).hasSize(2);
    }

    @Test
    void aCommaPartWithoutEqualsContinuesThePreviousValue() {
        AgentConfig c = load("bootstrap.servers=a:9092,b:9092,service=shop");

        assertThat(c.bootstrapServers()).isEqualTo("a:9092,b:9092");
        assertThat(c.service()).isEqualTo("shop");
    }

    @Test
    void unknownArgumentsAreReportedAndIgnored() {
        AgentConfig c = load("sevrice=shop,orphan");

        assertThat(c.service()).isEqualTo("unknown-service");
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("'sevrice'"));
    }

    @Test
    void namesMustNotContainTheRecordKeySeparator() {
        assertThat(load("service=a\u001fb").service()).isEqualTo("unknown-service");
        assertThat(load("service=").service()).isEqualTo("unknown-service");
        assertThat(warnings).hasSize(2);
    }

    @Test
    void defaultInstanceIsOnlyComputedWhenNoSourceSetsIt() {
        AtomicInteger calls = new AtomicInteger();
        AgentConfig c = AgentConfig.load("instance=pod-7", sysProps::get, env::get,
                () -> "host-" + calls.incrementAndGet(), warnings::add);

        assertThat(c.instance()).isEqualTo("pod-7");
        assertThat(calls).hasValue(0);
    }

    @Test
    void describeKeysListsEveryKeyWithItsDefaultAndSources() {
        String table = AgentConfig.describeKeys();

        for (String key : List.of(AgentConfig.BOOTSTRAP_SERVERS, AgentConfig.TOPIC,
                AgentConfig.SERVICE, AgentConfig.VERSION, AgentConfig.INSTANCE, AgentConfig.PERIOD,
                AgentConfig.FLUSH, AgentConfig.STACK_DEPTH, AgentConfig.LABELS, AgentConfig.BUFFER,
                AgentConfig.SPILL_DIR, AgentConfig.SPILL_MAX, AgentConfig.THREADS_INCLUDE,
                AgentConfig.THREADS_EXCLUDE, AgentConfig.CONFIG)) {
            assertThat(table).contains("| `" + key + "` |");
        }
        assertThat(table).contains("`localhost:9092`", "`20ms`", "`10s`", "`256`",
                "`<hostname>-<pid>`", "`cctflow.bootstrap.servers`", "`CCTFLOW_BOOTSTRAP_SERVERS`",
                "`16m`", "`256m`", "`CCTFLOW_SPILL_DIR`");
    }

    @Test
    void oddPeriodsThatAvoidLockstepWithPeriodicWorkAreAccepted() {
        assertThat(load("period=19ms").periodMillis()).isEqualTo(19);
        assertThat(load("period=19").periodMillis()).isEqualTo(19);
        assertThat(load("period=1").periodMillis()).isEqualTo(1);
        assertThat(load("period=997ms").periodMillis()).isEqualTo(997);
        assertThat(warnings).isEmpty();
        assertThat(load("period=19ms").toString()).contains("period=19ms");
    }

    @Test
    void configFileHasTheLowestPrecedence() throws IOException {
        Path file = write("agent.properties", """
                # comments and blank lines are fine

                service = from-file
                version=v-file
                topic=t-file
                flush=2s
                """);
        env.put("CCTFLOW_CONFIG", file.toString());
        env.put("CCTFLOW_TOPIC", "t-env");
        sysProps.put("cctflow.version", "v-sysprop");

        AgentConfig c = load("flush=3s");

        assertThat(c.service()).isEqualTo("from-file");
        assertThat(c.version()).isEqualTo("v-sysprop");
        assertThat(c.topic()).isEqualTo("t-env");
        assertThat(c.flushMillis()).isEqualTo(3_000);
        assertThat(c.configFile()).contains(file);
        assertThat(warnings).isEmpty();
    }

    @Test
    void configFileCanBeNamedByAgentArgumentOrSystemProperty() throws IOException {
        Path a = write("a.properties", "service=a\n");
        Path b = write("b.properties", "service=b\n");
        sysProps.put("cctflow.config", b.toString());

        assertThat(load("config=" + a).service()).isEqualTo("a");
        assertThat(load("").service()).isEqualTo("b");
        assertThat(warnings).isEmpty();
    }

    @Test
    void unreadableConfigFileIsReportedByNameAndTheOtherSourcesStillApply() {
        Path missing = dir.resolve("missing.properties");

        AgentConfig c = load("config=" + missing + ",service=shop");

        assertThat(c.service()).isEqualTo("shop");
        assertThat(c.periodMillis()).isEqualTo(20);
        assertThat(warnings).singleElement().asString()
                .contains("cannot read config file " + missing, "NoSuchFileException", "ignoring it");
    }

    @Test
    void configFileThatIsADirectoryIsReportedAndIgnored() {
        AgentConfig c = load("config=" + dir);

        assertThat(c.service()).isEqualTo("unknown-service");
        assertThat(warnings).singleElement().asString().contains("cannot read config file " + dir);
    }

    @Test
    void malformedEscapeInConfigFileIsReportedAndIgnored() throws IOException {
        Path file = write("bad.properties", "service=shop\nversion=\\uZZZZ\n");

        AgentConfig c = load("config=" + file);

        assertThat(c.service()).isEqualTo("unknown-service");
        assertThat(warnings).singleElement().asString().contains("cannot read config file " + file);
    }

    @Test
    void badValueInConfigFileNamesTheFileAndKeyAndUsesTheDefault() throws IOException {
        Path file = write("agent.properties", "period=often\nstackdepth=512\n");
        sysProps.put("cctflow.config", file.toString());

        AgentConfig c = load(null);

        assertThat(c.periodMillis()).isEqualTo(20);
        assertThat(c.stackDepth()).isEqualTo(512);
        assertThat(warnings).singleElement().asString().contains("bad value 'often'",
                "key period in config file " + file, "using the default 20ms");
    }

    @Test
    void unknownKeysAndANestedConfigKeyInTheFileAreReported() throws IOException {
        Path file = write("agent.properties", "sevrice=shop\nconfig=/other.properties\n");

        load("config=" + file);

        assertThat(warnings).hasSize(2);
        assertThat(warnings).anySatisfy(w -> assertThat(w)
                .contains("ignoring unknown key 'sevrice' in config file " + file));
        assertThat(warnings).anySatisfy(w -> assertThat(w)
                .contains("ignoring key 'config' in config file " + file, "cannot name another"));
    }

    @Test
    void threadFiltersMatchTheWholeRawName() throws IOException {
        // in a properties file a backslash must be doubled
        Path file = write("agent.properties", "threads.exclude=pool-\\\\d+-thread-2\n");

        AgentConfig c = load("config=" + file + ",threads.include=main|pool-.*");

        assertThat(c.threads().accepts("main")).isTrue();
        assertThat(c.threads().accepts("pool-1-thread-1")).isTrue();
        assertThat(c.threads().accepts("pool-1-thread-2")).isFalse();
        assertThat(c.threads().accepts("pool-1-thread-21")).isTrue();
        assertThat(c.threads().accepts("my-main")).as("the whole name must match").isFalse();
        assertThat(warnings).isEmpty();
    }

    @Test
    void threadFiltersDefaultToEveryThread() {
        AgentConfig c = load(null);

        assertThat(c.threads().accepts("main")).isTrue();
        assertThat(c.threads().accepts("")).isTrue();
        assertThat(c.threads().toString()).isEqualTo("include (all), exclude (none)");
    }

    @Test
    void badThreadRegexIsReportedAndFiltersNothing() {
        sysProps.put("cctflow.threads.exclude", "pool-(");

        AgentConfig c = load(null);

        assertThat(c.threads().accepts("pool-1")).isTrue();
        assertThat(warnings).singleElement().asString().contains("system property cctflow.threads.exclude",
                "not a regular expression", "using the default (none)");
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    /** Docs that match the code: the README's agent table is exactly {@link AgentConfig#describeKeys()}. */
    @Test
    void readmeHoldsTheKeyTable() throws IOException {
        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);

        assertThat(readme).contains(AgentConfig.describeKeys());
    }
}
