package io.cctflow.bench.parcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ReleaseComparisonOptionsTest {

    @Test
    void defaultsRunJythonAndJRubyFor150Seconds() {
        ReleaseComparison.Options o = ReleaseComparison.Options.parse();
        assertThat(o.apps()).extracting(Application::name).containsExactly("jython", "jruby");
        assertThat(o.seconds()).isEqualTo(150);
        assertThat(o.warmupSeconds()).isEqualTo(30);
        assertThat(o.periodMillis()).isEqualTo(1);
        assertThat(o.out()).isEqualTo(Path.of("bench/reports/parcs"));
        assertThat(o.tolerance()).isEqualTo(0.01);
        assertThat(o.samplingZ()).isEqualTo(2.0);
        assertThat(ReleaseComparison.Options.parse("--sampling-z", "3").samplingZ()).isEqualTo(3.0);
        assertThat(o.replicated()).isFalse();
        assertThat(ReleaseComparison.Options.parse("--replicated", "yes").replicated()).isTrue();
        assertThatThrownBy(() -> ReleaseComparison.Options.parse("--replicated", "maybe"))
                .hasMessageContaining("--replicated must be yes or no, got 'maybe'");
    }

    @Test
    void parsesACustomApplication() {
        ReleaseComparison.Options o = ReleaseComparison.Options.parse("--app", "groovy=org.apache.groovy:groovy:4.0.1:4.0.2:w.groovy",
                "--seconds", "30", "--period", "10", "--warmup", "0");
        Application app = o.apps().get(0);
        assertThat(app.coordinates(app.oldVersion())).isEqualTo("org.apache.groovy:groovy:4.0.1");
        assertThat(app.coordinates(app.newVersion())).isEqualTo("org.apache.groovy:groovy:4.0.2");
        assertThat(app.script()).isEqualTo("w.groovy");
        assertThat(o.seconds()).isEqualTo(30);
        assertThat(o.periodMillis()).isEqualTo(10);
        assertThat(o.warmupSeconds()).isZero();
    }

    @Test
    void rejectsBadValuesNamingTheOption() {
        assertThatThrownBy(() -> ReleaseComparison.Options.parse("--seconds", "0"))
                .hasMessageContaining("--seconds must be a positive whole number, got '0'");
        assertThatThrownBy(() -> ReleaseComparison.Options.parse("--warmup", "-1"))
                .hasMessageContaining("--warmup must be a whole number of seconds, 0 or more, got '-1'");
        assertThatThrownBy(() -> ReleaseComparison.Options.parse("--period", "1001"))
                .hasMessageContaining("--period must be 1..1000 milliseconds, got '1001'");
        assertThatThrownBy(() -> ReleaseComparison.Options.parse("--tolerance", "1.5"))
                .hasMessageContaining("--tolerance must be a number in [0, 1)");
        assertThatThrownBy(() -> ReleaseComparison.Options.parse("--sampling-z", "x"))
                .hasMessageContaining("--sampling-z must be a number in (0, 10], got 'x'");
        assertThatThrownBy(() -> ReleaseComparison.Options.parse("--tolerance", "NaN"))
                .hasMessageContaining("--tolerance must be a number in [0, 1), got 'NaN'");
        assertThatThrownBy(() -> ReleaseComparison.Options.parse("--tolerance", "1"))
                .hasMessageContaining("--tolerance must be a number in [0, 1), got '1'");
        assertThatThrownBy(() -> ReleaseComparison.Options.parse("--sampling-z", "0"))
                .hasMessageContaining("--sampling-z must be a number in (0, 10], got '0'");
        assertThat(ReleaseComparison.Options.parse("--tolerance", "0").tolerance()).isZero();
        assertThat(ReleaseComparison.Options.parse("--sampling-z", "10").samplingZ()).isEqualTo(10.0);
        assertThatThrownBy(() -> ReleaseComparison.Options.parse("--app", "x=a:b"))
                .hasMessageContaining("NAME=GROUP:ARTIFACT:OLD:NEW:SCRIPT");
        assertThatThrownBy(() -> ReleaseComparison.Options.parse("--top"))
                .hasMessageContaining("--top needs a value");
        assertThatThrownBy(() -> ReleaseComparison.Options.parse("--nope", "1"))
                .hasMessageContaining("unknown option '--nope'");
    }
}
