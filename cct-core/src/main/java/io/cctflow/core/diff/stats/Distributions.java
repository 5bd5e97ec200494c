package io.cctflow.core.diff.stats;

/**
 * The few distribution functions the comparison needs, in plain Java: the normal and Student t
 * tails and quantiles, the log-gamma function, and the digamma and trigamma functions (for the
 * moments of a log chi-square, {@link Dispersion}). Accuracy: normal tail relative error below
 * 1.2e-7 (Numerical Recipes' Chebyshev fit of erfc), normal quantile 1.2e-9 (Acklam), log-gamma
 * 1e-14 (Lanczos, g = 7), t tail by the regularized incomplete beta continued fraction (1e-12
 * before rounding), digamma and trigamma 1e-13 (recurrence up to x &gt;= 10, then the asymptotic
 * series). Stateless.
 */
public final class Distributions {
    private static final double[] LANCZOS = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
        771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
        9.9843695780195716e-6, 1.5056327351493116e-7};

    private Distributions() {
    }

    /** P(Z &gt; z) for a standard normal Z. */
    public static double normalUpperTail(double z) {
        return 0.5 * erfc(z / Math.sqrt(2));
    }

    /** Two-sided p-value of a standard normal statistic: P(|Z| &gt;= |z|). */
    public static double normalTwoSided(double z) {
        return Math.min(1.0, erfc(Math.abs(z) / Math.sqrt(2)));
    }

    /** Complementary error function (Numerical Recipes {@code erfcc}). */
    static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1.0 / (1.0 + 0.5 * z);
        double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2.0 - r;
    }

    /** The p-quantile of the standard normal, 0 &lt; p &lt; 1 (Acklam's rational approximation). */
    public static double normalQuantile(double p) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("probability must be in (0, 1), got " + p);
        }
        double[] a = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
            1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
        double[] b = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
            6.680131188771972e+01, -1.328068155288572e+01};
        double[] c = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
            -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
        double[] d = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
            3.754408661907416e+00};
        double low = 0.02425;
        if (p < low) {
            double q = Math.sqrt(-2 * Math.log(p));
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                    / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
        }
        if (p > 1 - low) {
            return -normalQuantile(1 - p);
        }
        double q = p - 0.5;
        double r = q * q;
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }

    /** Two-sided p-value of a Student t statistic with {@code df} degrees of freedom (df &gt; 0). */
    public static double studentTwoSided(double t, double df) {
        if (!(df > 0)) {
            throw new IllegalArgumentException("degrees of freedom must be > 0, got " + df);
        }
        if (Double.isInfinite(t)) {
            return 0.0;
        }
        return Math.min(1.0, regularizedBeta(df / (df + t * t), df / 2, 0.5));
    }

    /**
     * P(F &gt;= f) for Fisher's F with {@code d1} and {@code d2} degrees of freedom (d1, d2 &gt; 0;
     * a d2 of 1e6 stands for infinity, where F is chi-square over d1).
     */
    public static double fUpperTail(double f, double d1, double d2) {
        if (!(d1 > 0 && d2 > 0)) {
            throw new IllegalArgumentException("degrees of freedom must be > 0, got " + d1 + ", " + d2);
        }
        if (!(f > 0)) {
            return 1.0;
        }
        return regularizedBeta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
    }

    /** The quantile t with P(|T| &lt;= t) = {@code confidence} for {@code df} degrees of freedom. */
    public static double studentQuantile(double confidence, double df) {
        double lo = 0;
        double hi = 1;
        while (studentTwoSided(hi, df) > 1 - confidence) {
            hi *= 2;
        }
        for (int i = 0; i < 100 && hi - lo > 1e-12 * hi; i++) {
            double mid = (lo + hi) / 2;
            if (studentTwoSided(mid, df) > 1 - confidence) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /** ln Gamma(x) for x &gt; 0. */
    public static double logGamma(double x) {
        if (x < 0.5) {
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
        }
        double y = x - 1;
        double sum = LANCZOS[0];
        for (int i = 1; i < LANCZOS.length; i++) {
            sum += LANCZOS[i] / (y + i);
        }
        double t = y + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(sum);
    }

    /** The digamma function psi(x) = d/dx ln Gamma(x), x &gt; 0. */
    public static double digamma(double x) {
        if (!(x > 0)) {
            throw new IllegalArgumentException("digamma needs x > 0, got " + x);
        }
        double shift = 0;
        while (x < 10) {
            shift -= 1 / x;
            x += 1;
        }
        double f = 1 / (x * x);
        return shift + Math.log(x) - 0.5 / x
                - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
    }

    /** The trigamma function psi'(x), x &gt; 0. */
    public static double trigamma(double x) {
        if (!(x > 0)) {
            throw new IllegalArgumentException("trigamma needs x > 0, got " + x);
        }
        double shift = 0;
        while (x < 10) {
            shift += 1 / (x * x);
            x += 1;
        }
        double f = 1 / (x * x);
        return shift + 1 / x + f / 2
                + f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f * (1.0 / 30 - f * (5.0 / 66)))));
    }

    /** The x &gt; 0 with trigamma(x) = y, y &gt; 0 (bisection on log x; trigamma falls monotonically). */
    public static double trigammaInverse(double y) {
        if (!(y > 0)) {
            throw new IllegalArgumentException("trigamma's inverse needs y > 0, got " + y);
        }
        double lo = Math.log(1e-12);
        double hi = Math.log(1e15);
        for (int i = 0; i < 200 && hi - lo > 1e-14; i++) {
            double mid = (lo + hi) / 2;
            if (trigamma(Math.exp(mid)) > y) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Math.exp((lo + hi) / 2);
    }

    /** The regularized incomplete beta function I_x(a, b), 0 &lt;= x &lt;= 1. */
    static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
        if (x < (a + 1) / (a + b + 2)) {
            return front * betaFraction(x, a, b) / a;
        }
        return 1 - front * betaFraction(1 - x, b, a) / b;
    }

    /** Lentz's continued fraction for the incomplete beta (Numerical Recipes {@code betacf}). */
    private static double betaFraction(double x, double a, double b) {
        double tiny = 1e-300;
        double c = 1;
        double d = 1 - (a + b) * x / (a + 1);
        d = 1 / (Math.abs(d) < tiny ? tiny : d);
        double h = d;
        for (int m = 1; m <= 500; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
            d = 1 + aa * d;
            d = 1 / (Math.abs(d) < tiny ? tiny : d);
            c = 1 + aa / c;
            c = Math.abs(c) < tiny ? tiny : c;
            h *= d * c;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
            d = 1 + aa * d;
            d = 1 / (Math.abs(d) < tiny ? tiny : d);
            c = 1 + aa / c;
            c = Math.abs(c) < tiny ? tiny : c;
            double del = d * c;
            h *= del;
            if (Math.abs(del - 1) < 1e-14) {
                break;
            }
        }
        return h;
    }
}
