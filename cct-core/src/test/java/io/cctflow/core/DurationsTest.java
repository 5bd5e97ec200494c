package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void readsEveryUnitAndIso8601() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Durations.parse("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(Durations.parse("7d")).isEqualTo(Duration.ofDays(7));
        assertThat(Durations.parse("PT1M30S")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("0")).isZero();
    }

    @Test
    void toleratesCaseAndSpaces() {
        assertThat(Durations.parse(" 10 S ")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Durations.parse("250MS")).isEqualTo(Duration.ofMillis(250));
        assertThat(Durations.parse("pt2h")).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void rejectsWhatItCannotReadNamingTheAcceptedForms() {
        for (String bad : new String[] {"", "10", "ten seconds", "5w", "1.5s", "PTx", "ms"}) {
            assertThatThrownBy(() -> Durations.parse(bad)).as("'%s'", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("not a duration: '" + bad + "' (write e.g. 500ms, 30s, 1m, 2h, 7d or PT1M)");
        }
    }
}
