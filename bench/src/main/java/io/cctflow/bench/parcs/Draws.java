package io.cctflow.bench.parcs;

import com.fasterxml.jackson.databind.JsonNode;
import io.cctflow.bench.overhead.Quantiles;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Every draw one harness run holds, without another JVM: the four pairings of an older and a newer
 * JVM (old run 1 → new run 1, old 2 → new 2, old 1 → new 2, old 2 → new 1) and the noise pair of each
 * release (run 1 against run 2), each as the compare endpoint answered it, with the median and range
 * of each figure. The four release pairings are not independent (each JVM is in two of them), but
 * they are all a reader could have been shown from this run's JVMs.
 *
 * @param releases the release pairings, pair 1 (the main comparison) first
 * @param releaseSummary median and range over {@code releases}
 * @param noise the noise pairs, the older release's first
 * @param noiseSummary median and range over {@code noise}
 */
record Draws(List<Draw> releases, Summary releaseSummary, List<Draw> noise, Summary noiseSummary) {

    static Draws of(List<Draw> releases, List<Draw> noise) {
        return new Draws(releases, Summary.of(releases), noise, Summary.of(noise));
    }

    /**
     * One pairing: side a is the baseline (the older release, or run 1 of a noise pair).
     *
     * @param shareOfA common tree nodes / side a's nodes
     * @param selfOverlap overlap by self samples; for a noise pair also the threshold it gives (the
     *     compare endpoint's noise threshold is the noise pair's self overlap, seed 000 Sect. 3.4)
     */
    record Draw(String pairing, int commonTree, double shareOfA, double shareOfB, double selfOverlap,
            double totalOverlap, double score) {

        static Draw of(String pairing, JsonNode compare) {
            JsonNode ct = compare.path("commonTree");
            return new Draw(pairing, ct.path("size").asInt(), ct.path("shareOfA").asDouble(),
                    ct.path("shareOfB").asDouble(), compare.path("overlap").path("self").asDouble(),
                    compare.path("overlap").path("total").asDouble(), compare.path("score").asDouble());
        }
    }

    /** Median and range of one figure over the draws. */
    record Spread(double median, double min, double max) {

        /**
         * The median of an even count is the mean of the two middle values.
         *
         * @throws IllegalArgumentException if there are no values
         */
        static Spread of(double... values) {
            Quantiles q = Quantiles.of(Arrays.stream(values).boxed().toList());
            return new Spread(q.median(), q.min(), q.max());
        }
    }

    /** The spread of every figure of a list of draws. */
    record Summary(Spread commonTree, Spread shareOfA, Spread shareOfB, Spread selfOverlap, Spread totalOverlap,
            Spread score) {

        static Summary of(List<Draw> draws) {
            return new Summary(spread(draws, Draw::commonTree), spread(draws, Draw::shareOfA),
                    spread(draws, Draw::shareOfB), spread(draws, Draw::selfOverlap), spread(draws, Draw::totalOverlap),
                    spread(draws, Draw::score));
        }

        private static Spread spread(List<Draw> draws, ToDoubleFunction<Draw> figure) {
            return Spread.of(draws.stream().mapToDouble(figure).toArray());
        }
    }

    void markdown(StringBuilder md, String oldCoordinates, String newCoordinates) {
        md.append("\n## Draws: every pairing of this run's JVMs\n\n"
                + "Each pairing of an older and a newer JVM is one draw of the release comparison (pair 1, old run 1 →"
                + " new run 1, is the main comparison above); each release's two JVMs give one noise draw. No extra JVM"
                + " runs for these: they are further compare calls on the stored runs. The four release pairings share"
                + " JVMs (each JVM is in two), so they show the spread of what one pair of JVMs could have reported,"
                + " not four independent samples.\n\n"
                + "| release pairing | common tree (share of old / new) | overlap self / total | score |\n"
                + "|---|---|---|---|\n");
        for (Draw d : releases) {
            md.append(String.format(Locale.ROOT, "| %s | %d (%.1f %% / %.1f %%) | %.1f %% / %.1f %% | %.1f |%n",
                    d.pairing(), d.commonTree(), 100 * d.shareOfA(), 100 * d.shareOfB(), 100 * d.selfOverlap(),
                    100 * d.totalOverlap(), d.score()));
        }
        Summary s = releaseSummary;
        md.append(String.format(Locale.ROOT, "| **median (min..max)** | %s (%s / %s) | %s / %s | %s |%n",
                count(s.commonTree()), percent(s.shareOfA()), percent(s.shareOfB()), percent(s.selfOverlap()),
                percent(s.totalOverlap()), plain(s.score())));
        md.append(String.format(Locale.ROOT, "%n| noise pairing | common tree (share of run 1 / run 2) | overlap self"
                + " (= the threshold it gives) / total |%n|---|---|---|%n"));
        for (Draw d : noise) {
            md.append(String.format(Locale.ROOT, "| %s | %d (%.1f %% / %.1f %%) | %.1f %% (%.3f) / %.1f %% |%n",
                    d.pairing(), d.commonTree(), 100 * d.shareOfA(), 100 * d.shareOfB(), 100 * d.selfOverlap(),
                    d.selfOverlap(), 100 * d.totalOverlap()));
        }
        Summary n = noiseSummary;
        md.append(String.format(Locale.ROOT, "| **median (min..max)** | %s (%s / %s) | %s / %s |%n",
                count(n.commonTree()), percent(n.shareOfA()), percent(n.shareOfB()), percent(n.selfOverlap()),
                percent(n.totalOverlap())));
        md.append(String.format(Locale.ROOT, "%nThe release comparisons use the older release's noise pair (%s) for"
                + " their threshold. Old: %s; new: %s.%n", noise.get(0).pairing(), oldCoordinates, newCoordinates));
    }

    private static String percent(Spread s) {
        return String.format(Locale.ROOT, "%.1f %% (%.1f..%.1f)", 100 * s.median(), 100 * s.min(), 100 * s.max());
    }

    private static String plain(Spread s) {
        return String.format(Locale.ROOT, "%.1f (%.1f..%.1f)", s.median(), s.min(), s.max());
    }

    private static String count(Spread s) {
        return String.format(Locale.ROOT, "%.0f (%.0f..%.0f)", s.median(), s.min(), s.max());
    }
}
