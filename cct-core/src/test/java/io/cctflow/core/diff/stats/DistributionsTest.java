package io.cctflow.core.diff.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DistributionsTest {
    @Test
    void normalQuantilesAndTailsMatchTables() {
        assertEquals(1.959963985, Distributions.normalQuantile(0.975), 1e-8);
        assertEquals(-2.326347874, Distributions.normalQuantile(0.01), 1e-8);
        assertEquals(0.05, Distributions.normalTwoSided(1.959963985), 1e-8);
        assertEquals(2.866515719e-7, Distributions.normalUpperTail(5), 2.866515719e-7 * 2e-7);
    }

    @Test
    void studentTMatchesTables() {
        assertEquals(4.302652730, Distributions.studentQuantile(0.95, 2), 1e-7);
        assertEquals(2.228138852, Distributions.studentQuantile(0.95, 10), 1e-7);
        assertEquals(0.05, Distributions.studentTwoSided(2.228138852, 10), 1e-9);
        // df 1 is Cauchy: P(|T| > 1) = 0.5
        assertEquals(0.5, Distributions.studentTwoSided(1, 1), 1e-12);
        // large df tends to the normal
        assertEquals(Distributions.normalTwoSided(3), Distributions.studentTwoSided(3, 1e7), 1e-6);
    }

    @Test
    void fTailsMatchTheirClosedForms() {
        for (double t : new double[] {0.3, 1, 2.2, 5}) {
            for (double df : new double[] {1, 4, 30}) {
                // F(1, d) is T(d) squared
                assertEquals(Distributions.studentTwoSided(t, df), Distributions.fUpperTail(t * t, 1, df), 1e-10);
            }
            // F(2, infinity) is chi-square(2) / 2, whose tail is exp(-2f / 2)
            assertEquals(Math.exp(-t), Distributions.fUpperTail(t, 2, 1e6), 1e-4);
            // F(2, d): (1 + 2f / d)^(-d/2)
            assertEquals(Math.pow(1 + 2 * t / 7, -3.5), Distributions.fUpperTail(t, 2, 7), 1e-10);
        }
        assertEquals(1.0, Distributions.fUpperTail(0, 3, 5), 0);
    }

    @Test
    void logGammaIsLogFactorial() {
        double logFactorial = 0;
        for (int n = 1; n <= 170; n++) {
            logFactorial += Math.log(n);
            assertEquals(logFactorial, Distributions.logGamma(n + 1.0), 1e-10 * Math.max(1, logFactorial), "n=" + n);
        }
    }
}
