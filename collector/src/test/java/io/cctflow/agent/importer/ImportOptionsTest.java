package io.cctflow.agent.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImportOptionsTest {
    @TempDir
    Path dir;

    @Test
    void parsesEveryOptionInBothForms() throws Exception {
        Path file = Files.writeString(dir.resolve("a.collapsed"), "a.B.c 1\n");
        ImportOptions o = ImportOptions.parse(new String[] {"--bootstrap-servers", "k:9092",
            "--topic=t", "--service", "shop", "--version", "v2", "--instance", "pod-1",
            "--labels", "zone=a;ns=x", "--window", "5s", "--period", "10ms",
            "--time", "2024-05-01T12:00:00Z", "--timeout", "1m", file.toString()});

        assertThat(o.bootstrapServers).isEqualTo("k:9092");
        assertThat(o.topic).isEqualTo("t");
        assertThat(o.service).isEqualTo("shop");
        assertThat(o.version).isEqualTo("v2");
        assertThat(o.instance).isEqualTo("pod-1");
        assertThat(o.labels).containsExactly(Map.entry("zone", "a"), Map.entry("ns", "x"));
        assertThat(o.windowMillis).isEqualTo(5_000);
        assertThat(o.periodMillis).isEqualTo(10);
        assertThat(o.time).isEqualTo(Instant.parse("2024-05-01T12:00:00Z"));
        assertThat(o.timeoutMillis).isEqualTo(60_000);
        assertThat(o.paths).containsExactly(file);
        assertThat(o.watch).isFalse();
    }

    @Test
    void defaultsNameNoInstanceSoEachFileIsItsOwn() throws Exception {
        ImportOptions o = ImportOptions.parse(new String[] {dir.toString()});

        assertThat(o.instance).isNull();
        assertThat(o.bootstrapServers).isEqualTo("localhost:9092");
        assertThat(o.topic).isEqualTo("cctflow.samples");
        assertThat(o.windowMillis).isEqualTo(10_000);
        assertThat(ImportCommand.instanceOf(Path.of("x/app-7.2024.jfr"))).isEqualTo("app-7.2024");
    }

    @Test
    void badArgumentsGiveOneLineNamingTheOption() {
        assertThatThrownBy(() -> ImportOptions.parse(new String[] {"--window", "soon", dir.toString()}))
                .hasMessage("bad value 'soon' for option --window: not a duration (use e.g. 20, 20ms, 10s, 1m)");
        assertThatThrownBy(() -> ImportOptions.parse(new String[] {"--topik", "t", dir.toString()}))
                .hasMessage("unknown option --topik (see --help)");
        assertThatThrownBy(() -> ImportOptions.parse(new String[] {dir.toString(), "--topic"}))
                .hasMessage("option --topic needs a value");
        assertThatThrownBy(() -> ImportOptions.parse(new String[] {"--watch", dir.resolve("nope").toString()}))
                .hasMessage("no such file or directory: " + dir.resolve("nope"));
        assertThatThrownBy(() -> ImportOptions.parse(new String[] {"--time", "yesterday", dir.toString()}))
                .hasMessageContaining("for option --time: not an ISO-8601 instant");
        assertThatThrownBy(() -> ImportOptions.parse(new String[0]))
                .hasMessageContaining("no file or directory given");
    }

    @Test
    void watchNeedsDirectories() throws Exception {
        Path file = Files.writeString(dir.resolve("a.jfr"), "x");

        assertThatThrownBy(() -> ImportOptions.parse(new String[] {"--watch", file.toString()}))
                .hasMessage("option --watch needs directories, but " + file + " is a file");
    }

    @Test
    void commandExitsWithTwoForBadArgumentsAndZeroForHelp() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);

        assertThat(ImportCommand.run(new String[] {"--period", "0", dir.toString()}, o, e)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("cctflow import: bad value '0' for"
                + " option --period: must be between 1 ms and 60000 ms, was 0 ms" + System.lineSeparator());
        assertThat(ImportCommand.run(new String[] {"--help"}, o, e)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: java -jar cctflow-collector.jar import",
                "--bootstrap-servers", "--watch", "--window");
    }

    @Test
    void flushIsAnotherNameForWindowAndLabelsKeepTheirOwnSyntax() throws Exception {
        ImportOptions o = ImportOptions.parse(new String[] {"--flush=2s", "--labels", "a=1;b=x=y", dir.toString()});

        assertThat(o.windowMillis).isEqualTo(2_000);
        assertThat(o.labels).containsExactly(Map.entry("a", "1"), Map.entry("b", "x=y"));
        assertThatThrownBy(() -> ImportOptions.parse(new String[] {"--labels", "a", dir.toString()}))
                .hasMessage("bad value 'a' for option --labels: label 'a' is not key=value");
    }

    @Test
    void helpShowsEveryOptionWithItsDefault() {
        assertThat(ImportOptions.usage()).contains("--bootstrap-servers", "(default localhost:9092)", "--topic",
                "(default cctflow.samples)", "--window", "(default 10s)", "--period", "(default 20ms)", "--poll",
                "(default 1s)", "--timeout", "(default 30s)", "--labels", "--time", "--instance", "--watch", "--help");
    }
}
