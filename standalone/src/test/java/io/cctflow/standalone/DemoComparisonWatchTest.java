package io.cctflow.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The demo's comparison in words: still collecting until labels exist, then the significant methods only. */
class DemoComparisonWatchTest {
    private static String body(String model, int replicatesB, String unitB, boolean significant, String rows) {
        return """
                {"significant": %s, "message": "%s",
                 "significance": {"model": "%s", "replicatesA": 3, "unitA": "windows", "replicatesB": %d,
                                  "unitB": "%s"},
                 "a": {"version": "1.0.0", "samples": 7148}, "b": {"version": "1.1.0", "samples": 2800},
                 "methods": [%s]}""".formatted(significant, significant ? "1 method changed significantly" : "x",
                model, replicatesB, unitB, rows);
    }

    private static String row(String method, String change, boolean significant, double a, double b, double q) {
        return """
                {"method": "%s", "change": "%s",
                 "methodTime": {"significant": %s, "shareA": %s, "shareB": %s, "qValue": %s},
                 "selfTime": {"significant": false}}""".formatted(method, change, significant, a, b, q);
    }

    @Test
    void saysItIsStillCollectingWhileLabelsAreWithheldOrNoSampleExists() throws Exception {
        DemoComparisonWatch.Answer withheld = DemoComparisonWatch.describe(200,
                body("withheld", 1, "none", false, row("S.priceCart(I)J", "WITHHELD", false, 0.05, 0.1, 1e-9)))
                .orElseThrow();
        assertThat(withheld.settled()).isFalse();
        assertThat(withheld.text()).contains("still collecting").contains("7,148 samples in 3 windows against "
                + "2,800 in one window").doesNotContain("priceCart");
        assertThat(DemoComparisonWatch.describe(404, "{}").orElseThrow().text()).contains("still collecting");
        assertThat(DemoComparisonWatch.describe(500, "{}")).isEmpty();
        DemoComparisonWatch.Answer none = DemoComparisonWatch.describe(200,
                body("replicates", 2, "windows", false, row("S.priceCart(I)J", "UNCHANGED", false, 0.05, 0.06, 0.3)))
                .orElseThrow();
        assertThat(none.settled()).isFalse();
        assertThat(none.text()).contains("no significant change yet");
    }

    @Test
    void namesTheSignificantMethodsAndNothingElse() throws Exception {
        DemoComparisonWatch.Answer found = DemoComparisonWatch.describe(200, body("replicates", 3, "instances", true,
                row("S.priceCart(I)J", "REGRESSION", true, 0.0549, 0.1073, 5.7e-6) + ","
                        + row("S.render(I)J", "UNCHANGED", false, 0.2, 0.19, 0.4))).orElseThrow();
        assertThat(found.settled()).isTrue();
        assertThat(found.text()).contains("7,148 samples in 3 windows against 2,800 in 3 instances")
                .contains("1 method changed significantly")
                .contains("REGRESSION S.priceCart(I)J: method time 5.5 % -> 10.7 % (q = 6e-06)")
                .doesNotContain("render");
    }
}
