package io.cctflow.bench.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class QueryBenchOptionsTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        QueryBenchOptions o = QueryBenchOptions.parse(new String[0]);

        assertThat(o.phase()).isEqualTo("all");
        assertThat(o.dataDir()).isNull();
        assertThat(o.instances()).isEqualTo(10);
        assertThat(o.days()).isEqualTo(7);
        assertThat(o.hours()).isZero();
        assertThat(o.spanHours()).isEqualTo(7 * 24);
        assertThat(o.deployments()).isEqualTo(1);
        assertThat(o.window()).isEqualTo(Duration.ofMinutes(1));
        assertThat(o.samplesPerWindow()).isEqualTo(100);
        assertThat(o.repetitions()).isEqualTo(20);
        assertThat(o.treeNodes()).isEqualTo(100_000);
        assertThat(o.diffNodes()).isEqualTo(200_000);
        assertThat(o.calls()).isEqualTo(7);
        assertThat(o.pageCacheBytes()).isEqualTo(1L << 30);
        assertThat(o.reportDir()).isEqualTo(Path.of("bench/reports"));
        assertThat(o.jitWarmup()).isEqualTo(30);
        assertThat(o.readPhases()).isEqualTo(3);
        assertThat(o.alertingWindow()).isEqualTo(Duration.ofMinutes(5));
        assertThat(o.lastPass()).isZero();
    }

    @Test
    void parsesEveryOption() {
        QueryBenchOptions o = QueryBenchOptions.parse(new String[] {"--phase", "measure", "--data-dir", "d",
                "--instances", "2", "--days", "1", "--hours", "4", "--deployments", "2", "--window", "5m", "--samples-per-window", "7", "--repetitions", "3",
                "--tree-nodes", "10", "--diff-nodes", "20", "--calls", "4", "--page-cache", "512m",
                "--report-dir", "r", "--seed", "9", "--jit-warmup", "0", "--read-phases", "0", "--alerting-window", "1h",
                "--last-pass", "5"});

        assertThat(o).isEqualTo(new QueryBenchOptions("measure", Path.of("d"), 2, 1, 4, 2, Duration.ofMinutes(5), 7, 3, 10,
                20, 4, 512L << 20, Path.of("r"), 9, 0, 0, Duration.ofHours(1), 5));
    }

    @Test
    void theBusyProfileSamplesSixThousandPerInstanceMinuteScaledToTheWindow() {
        assertThat(QueryBenchOptions.parse(new String[] {"--profile", "busy"}).samplesPerWindow()).isEqualTo(6000);
        assertThat(QueryBenchOptions.parse(new String[] {"--profile", "busy", "--window", "10s"}).samplesPerWindow())
                .isEqualTo(1000);
        assertThat(QueryBenchOptions.parse(new String[] {"--profile", "busy", "--samples-per-window", "5"})
                .samplesPerWindow()).isEqualTo(5);
        assertThat(QueryBenchOptions.parse(new String[] {"--hours", "3"}).spanHours()).isEqualTo(3);
    }

    @Test
    void badOptionsFailNamingTheOption() {
        assertThatThrownBy(() -> QueryBenchOptions.parse(new String[] {"--last-pass", "10"}))
                .hasMessageContaining("--last-pass must be at most 9");
        assertThatThrownBy(() -> QueryBenchOptions.parse(new String[] {"--profile", "idle"}))
                .hasMessageContaining("--profile must be light or busy");
        assertThatThrownBy(() -> QueryBenchOptions.parse(new String[] {"--instances", "2", "--deployments", "3"}))
                .hasMessageContaining("--deployments (3) must not exceed --instances (2)");
        assertThatThrownBy(() -> QueryBenchOptions.parse(new String[] {"--instances", "0"}))
                .hasMessageContaining("--instances must be a positive integer");
        assertThatThrownBy(() -> QueryBenchOptions.parse(new String[] {"--window", "7m"}))
                .hasMessageContaining("--window must divide an hour");
        assertThatThrownBy(() -> QueryBenchOptions.parse(new String[] {"--phase", "measure"}))
                .hasMessageContaining("--phase measure needs --data-dir");
        assertThatThrownBy(() -> QueryBenchOptions.parse(new String[] {"--phase", "live"}))
                .hasMessageContaining("--phase live needs --data-dir");
        assertThatThrownBy(() -> QueryBenchOptions.parse(new String[] {"--phase", "settle"}))
                .hasMessageContaining("--phase must be all, build, measure, rollup, unroll, live, plans or");
        assertThatThrownBy(() -> QueryBenchOptions.parse(new String[] {"--page-cache", "lots"}))
                .hasMessageContaining("--page-cache must be a size");
        assertThatThrownBy(() -> QueryBenchOptions.parse(new String[] {"--jit-warmup", "-1"}))
                .hasMessageContaining("--jit-warmup must be 0 or a positive integer");
        assertThatThrownBy(() -> QueryBenchOptions.parse(new String[] {"--nope", "1"}))
                .hasMessageContaining("unknown option '--nope'");
        assertThatThrownBy(() -> QueryBenchOptions.parse(new String[] {"--days"}))
                .hasMessageContaining("has no value");
    }
}
