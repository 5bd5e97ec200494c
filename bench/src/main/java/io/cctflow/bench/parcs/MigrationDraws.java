package io.cctflow.bench.parcs;

import io.cctflow.core.migration.ImpactAnalysis;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Profile migration (seed 001) between every pairing of an older and a newer JVM of one harness run:
 * both older profiles migrated to both newer JVMs (old 1 → new 1, old 1 → new 2, old 2 → new 1,
 * old 2 → new 2), each judged against that newer JVM's profile with time saved counted in that JVM's
 * batches, under both tolerances; with the median and range of Acc and time saved per tolerance and
 * impact analysis. Which older JVM's profile is migrated moved time saved by tens of points between
 * harness runs ({@code bench/reports/parcs/README.md}), so one run reports the spread over both. The
 * four share JVMs (each older and each newer JVM is in two of them): they are the spread of what one
 * pairing of this run's JVMs could have reported, not four independent draws.
 *
 * <p>The noise of those figures: each JVM's profile migrated to the other JVM of its own release
 * with no change (old 1 → old 2, old 2 → old 1, new 1 → new 2, new 2 → new 1; AG, which with no
 * change reuses every node, as the other analyses would): the Acc and time saved that differences
 * between two JVMs of one release give by themselves. A release migration with time saved in that
 * range saves what a profile of another JVM of the newer release would have saved.
 *
 * @param migrations the four migrations, old 1 → new 1 (the report's main migration tables) first
 * @param summary the spread over the four per tolerance ({@code absolute} first, then {@code sampling})
 *     and impact analysis
 * @param noiseMigrations the four migrations within a release; {@code null} in reports written before
 *     they were made
 * @param noiseSummary their spread per tolerance, as {@code summary}; {@code null} with them
 */
record MigrationDraws(List<MigrationDraw> migrations, List<Summary> summary, List<MigrationDraw> noiseMigrations,
        List<Summary> noiseSummary) {

    static final String ABSOLUTE = "absolute";
    static final String SAMPLING = "sampling";

    /** Release migrations alone, as reports before the noise migrations had them. */
    static MigrationDraws of(List<MigrationDraw> migrations) {
        return new MigrationDraws(migrations, summarize(migrations), null, null);
    }

    static MigrationDraws of(List<MigrationDraw> migrations, List<MigrationDraw> noiseMigrations) {
        return new MigrationDraws(migrations, summarize(migrations), noiseMigrations, summarize(noiseMigrations));
    }

    private static List<Summary> summarize(List<MigrationDraw> migrations) {
        if (migrations.isEmpty()) {
            throw new IllegalArgumentException("no migrations");
        }
        List<Summary> summary = new ArrayList<>();
        summary.addAll(Summary.of(ABSOLUTE, migrations, MigrationDraw::absolute));
        summary.addAll(Summary.of(SAMPLING, migrations, MigrationDraw::sampling));
        return summary;
    }

    /**
     * One older profile migrated to one newer JVM.
     *
     * @param pairing e.g. {@code old 1 → new 2}
     * @param older the instance whose stored profile was migrated
     * @param newer the instance whose stored profile is the reference and whose batches count time saved
     * @param absolute the results under the absolute tolerance, one per impact analysis
     * @param sampling the results within the sampling tolerance, one per impact analysis
     */
    record MigrationDraw(String pairing, String older, String newer, List<MigrationStudy.Result> absolute,
            List<MigrationStudy.Result> sampling) {
    }

    /**
     * The spread of one tolerance and impact analysis over the migrations.
     *
     * @param tolerance {@value #ABSOLUTE} or {@value #SAMPLING}
     * @param timeSaved time saved (TS): the share of the newer run's samples a from-scratch profile
     *     needed to be as accurate as the migrated one; a migration whose Acc the whole newer run never
     *     reached counts as 1 (its true share is above 1), so min and median stay exact unless it is
     *     one of them
     * @param notReached how many of the migrations the whole newer run never reached
     */
    record Summary(String tolerance, ImpactAnalysis mode, Draws.Spread acc, Draws.Spread timeSaved, int notReached) {

        static List<Summary> of(String tolerance, List<MigrationDraw> migrations,
                Function<MigrationDraw, List<MigrationStudy.Result>> table) {
            List<Summary> out = new ArrayList<>();
            List<MigrationStudy.Result> first = table.apply(migrations.get(0));
            for (int j = 0; j < first.size(); j++) {
                ImpactAnalysis mode = first.get(j).mode();
                double[] acc = new double[migrations.size()];
                double[] timeSaved = new double[migrations.size()];
                int notReached = 0;
                for (int m = 0; m < migrations.size(); m++) {
                    MigrationStudy.Result r = table.apply(migrations.get(m)).get(j);
                    if (r.mode() != mode) {
                        throw new IllegalArgumentException("impact analyses in a different order: " + r.mode()
                                + " in " + migrations.get(m).pairing() + ", " + mode + " in " + migrations.get(0).pairing());
                    }
                    acc[m] = r.quality().acc();
                    timeSaved[m] = MigrationDraws.timeSaved(r);
                    if (r.samplesNeeded() < 0) {
                        notReached++;
                    }
                }
                out.add(new Summary(tolerance, mode, Draws.Spread.of(acc), Draws.Spread.of(timeSaved), notReached));
            }
            return out;
        }
    }

    /** The share of the newer run's samples needed; 1 when the whole run never reached the migrated Acc. */
    static double timeSaved(MigrationStudy.Result r) {
        return r.samplesNeeded() < 0 ? 1.0 : r.samplesSavedShare();
    }

    void markdown(StringBuilder md, double tolerance, Double samplingZ) {
        md.append("\n## Profile migration: both older JVMs to both newer JVMs\n\n"
                + "Each older JVM's profile migrated to each newer JVM under every impact analysis, judged against"
                + " that newer JVM's profile, with time saved (TS) counted in its batches: the share of the newer"
                + " run's samples a profile built from scratch needed to be as accurate as the migrated one (the"
                + " whole run when it never was). Old 1 → new 1 is the tables above. Which older JVM's profile is"
                + " migrated can move TS by tens of points, so one run reports all four. The four share JVMs (each"
                + " older and each newer JVM is in two migrations), so they show the spread of what one pairing of"
                + " this run's JVMs could have reported, not four independent draws.");
        List<String> named = new ArrayList<>();
        for (MigrationDraw d : migrations) {
            named.add(d.pairing() + ": " + d.older() + " → " + d.newer());
        }
        md.append(" Migrations: ").append(String.join("; ", named)).append(".\n");
        md.append(String.format(Locale.ROOT, "%n### Absolute tolerance %.3f of the root's samples%n%n", tolerance));
        table(md, migrations, summary, ABSOLUTE, MigrationDraw::absolute);
        md.append(String.format(Locale.ROOT, "%n### Within %.1f standard deviations of the sampling noise%n%n",
                samplingZ == null ? Double.NaN : samplingZ));
        table(md, migrations, summary, SAMPLING, MigrationDraw::sampling);
        if (noiseMigrations == null) {
            return;
        }
        md.append("\n### Noise: each JVM's profile migrated to the other JVM of its release\n\n"
                + "No code changed between the two, so AG reuses every node (as the other analyses would): the Acc"
                + " and time saved that two JVMs of one release give by themselves. A release migration whose TS"
                + " lies in this range saves what a profile of another JVM of the newer release would have saved;"
                + " how far TS moves between harness runs is to be judged against this spread.\n\n");
        md.append(String.format(Locale.ROOT, "Absolute tolerance %.3f:%n%n", tolerance));
        table(md, noiseMigrations, noiseSummary, ABSOLUTE, MigrationDraw::absolute);
        md.append(String.format(Locale.ROOT, "%nWithin %.1f standard deviations of the sampling noise:%n%n",
                samplingZ == null ? Double.NaN : samplingZ));
        table(md, noiseMigrations, noiseSummary, SAMPLING, MigrationDraw::sampling);
    }

    private static void table(StringBuilder md, List<MigrationDraw> migrations, List<Summary> summary, String tolerance,
            Function<MigrationDraw, List<MigrationStudy.Result>> results) {
        md.append("| migration | impact analysis | reusable old nodes | Acc | precision | recall | F"
                + " | TS: new samples needed for the same Acc |\n|---|---|---|---|---|---|---|---|\n");
        for (Summary s : summary) {
            if (!s.tolerance().equals(tolerance)) {
                continue;
            }
            for (MigrationDraw d : migrations) {
                for (MigrationStudy.Result r : results.apply(d)) {
                    if (r.mode() != s.mode()) {
                        continue;
                    }
                    md.append(String.format(Locale.ROOT, "| %s | %s | %d of %d | %.3f | %.3f | %.3f | %.3f | %s |%n",
                            d.pairing(), r.mode(), r.reusableNodes(), r.oldNodes(), r.quality().acc(),
                            r.quality().precision(), r.quality().recall(), r.quality().fMeasure(),
                            ReleaseReport.timeSaved(r)));
                }
            }
            Draws.Spread acc = s.acc();
            Draws.Spread ts = s.timeSaved();
            md.append(String.format(Locale.ROOT, "| **median (min..max)** | %s | | %.3f (%.3f..%.3f) | | | | %.1f %%"
                    + " (%.1f..%.1f)%s |%n", s.mode(), acc.median(), acc.min(), acc.max(), 100 * ts.median(),
                    100 * ts.min(), 100 * ts.max(), s.notReached() == 0 ? ""
                            : ", " + s.notReached() + " not reached, counted as 100 %"));
        }
    }
}
