package io.cctflow.bench.parcs;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Locale;

/**
 * What the harness found for one application, in the shape of PARCS Tables 3 and 4 (seed 000), plus
 * the noise run and profile migration (seed 001). Written as JSON and as Markdown.
 *
 * @param runs every profiled run, in the order they ran
 * @param noise the compare response of the two runs of the older release
 * @param comparison the compare response of the older release against the newer, with the noise
 *     threshold (the first JVM of each)
 * @param secondPair the same for the second JVM of each release, a second draw of the comparison;
 *     null in reports written before the harness ran two JVMs of the newer release
 * @param sampling the agent's and the workload JVM's settings of every run; null in reports written
 *     before it was recorded (sampled every 10 ms, without {@code DebugNonSafepoints})
 * @param migration profile migration judged with the absolute {@code tolerance}
 * @param samplingMigration the same migration judged within {@code samplingZ} standard deviations of
 *     the sampling noise ({@code ShareTolerance.sampling}); null (and {@code samplingZ} null) in
 *     reports written before it was measured
 * @param draws every pairing of the run's JVMs (four release pairings, two noise pairs) with median
 *     and range; null in reports written before it was computed
 * @param secondMigration {@code migration} again with the newer release's second JVM as the
 *     reference and its batches for time saved (the older release's first JVM migrated in both), a
 *     second draw of Acc and time saved; null in reports written before it, and in reports written
 *     since {@code migrationDraws} (which holds it as {@code old 1 → new 2})
 * @param secondSamplingMigration the same for {@code samplingMigration}; null when {@code secondMigration} is
 * @param migrationDraws both older JVMs' profiles migrated to both newer JVMs under both tolerances,
 *     with median and range of Acc and time saved; its first migration is {@code migration} and
 *     {@code samplingMigration}; null in reports written before it was measured
 * @param harnessWallTime from the start of the application's harness (jars fetched, pipeline
 *     started) until its report was complete (the pipeline's shutdown after it is not included)
 */
record ReleaseReport(String application, String oldCoordinates, String newCoordinates, int workloadSeconds,
        String sampling, List<ProfiledRun> runs, Code oldCode, Code newCode, JsonNode noise, JsonNode comparison,
        JsonNode secondPair, List<MigrationStudy.Result> migration, double tolerance, List<MigrationStudy.Result> samplingMigration,
        Double samplingZ, Draws draws, List<MigrationStudy.Result> secondMigration,
        List<MigrationStudy.Result> secondSamplingMigration, MigrationDraws migrationDraws, Duration harnessWallTime) {

    /** Classes and methods a release's CodeManifest holds (only the classes it loaded and we fingerprint). */
    record Code(int classes, int methods) {
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        JsonNode c = comparison;
        md.append("# ").append(application).append(": ").append(oldCoordinates).append(" → ").append(newCoordinates)
                .append("\n\n");
        md.append("Workload: the same script, ").append(workloadSeconds).append(" s sampled per run; runs: ");
        for (ProfiledRun r : runs) {
            md.append(String.format(Locale.ROOT, "%s (%s, %.1f s", r.instance(), r.version(),
                    r.wallTime().toMillis() / 1000.0));
            if (r.sampledTime() != null && !r.sampledTime().equals(r.wallTime())) {
                md.append(String.format(Locale.ROOT, ", %.1f s of it sampled", r.sampledTime().toMillis() / 1000.0));
            }
            md.append(") ");
        }
        if (sampling != null) {
            md.append("\n\nSampling: ").append(sampling).append('.');
        }
        md.append(String.format(Locale.ROOT, "%n%nHarness wall time: %.1f min (pipeline start-up, the runs, "
                + "waiting until they are stored, the comparisons, migration).%n", harnessWallTime.toMillis() / 60e3));
        md.append("\n\n## Code (PARCS Table 3)\n\n| | old | new |\n|---|---|---|\n");
        md.append("| classes (loaded, fingerprinted) | ").append(oldCode.classes()).append(" | ")
                .append(newCode.classes()).append(" |\n");
        md.append("| methods | ").append(oldCode.methods()).append(" | ").append(newCode.methods()).append(" |\n");
        JsonNode ch = c.path("changes");
        md.append("\nChange list: ").append(ch.path("added").asInt()).append(" added, ")
                .append(ch.path("deleted").asInt()).append(" deleted, ").append(ch.path("modified").asInt())
                .append(" modified methods (manifests on both sides: ").append(ch.path("manifests").asBoolean())
                .append(").\n");
        md.append("\n## Trees (PARCS Table 4)\n\n| | old | new |\n|---|---|---|\n");
        md.append("| samples | ").append(c.path("a").path("samples").asLong()).append(" | ")
                .append(c.path("b").path("samples").asLong()).append(" |\n");
        md.append("| CCT nodes | ").append(c.path("a").path("nodes").asInt()).append(" | ")
                .append(c.path("b").path("nodes").asInt()).append(" |\n");
        JsonNode ct = c.path("commonTree");
        md.append(String.format(Locale.ROOT, "| common tree | %d nodes (%.1f %%) | %d nodes (%.1f %%) |%n",
                ct.path("size").asInt(), 100 * ct.path("shareOfA").asDouble(), ct.path("size").asInt(),
                100 * ct.path("shareOfB").asDouble()));
        for (JsonNode s : c.path("stages")) {
            md.append("| stage ").append(s.path("stage").asText()).append(": subtrees (nodes) removed | ")
                    .append(s.path("subtreesA").asInt()).append(" (").append(s.path("nodesA").asInt()).append(") | ")
                    .append(s.path("subtreesB").asInt()).append(" (").append(s.path("nodesB").asInt()).append(") |\n");
        }
        md.append(String.format(Locale.ROOT, "%nOverlap (self samples) %.1f %%, (total samples) %.1f %%; score %.1f.%n",
                100 * c.path("overlap").path("self").asDouble(), 100 * c.path("overlap").path("total").asDouble(),
                c.path("score").asDouble()));
        md.append(String.format(Locale.ROOT,
                "%n## Noise (two runs of %s)%n%nOverlap (self) %.1f %%, (total) %.1f %%; common tree %.1f %% / %.1f %%;"
                        + " the weight matching stops at threshold %.3f.%n",
                oldCoordinates, 100 * noise.path("overlap").path("self").asDouble(),
                100 * noise.path("overlap").path("total").asDouble(),
                100 * noise.path("commonTree").path("shareOfA").asDouble(),
                100 * noise.path("commonTree").path("shareOfB").asDouble(),
                c.path("noise").path("threshold").asDouble()));
        md.append("\n## Top weight differences\n\n");
        if (c.path("differences").isEmpty()) {
            md.append(String.format(Locale.ROOT, "None beyond noise: the releases' self overlap (%.1f %%) is not below "
                    + "the noise threshold (%.1f %%), so the weight matching stops before its first step.%n",
                    100 * c.path("overlap").path("self").asDouble(), 100 * c.path("noise").path("threshold").asDouble()));
        }
        md.append("\n| method | weight old | weight new | Δ pweight | method time old → new | change |\n|---|---|---|---|---|---|\n");
        for (JsonNode d : c.path("differences")) {
            JsonNode mt = d.path("methodTime");
            md.append(String.format(Locale.ROOT, "| `%s` | %d | %d | %+.4f | %.3f → %.3f | %s (%d°) |%n",
                    d.path("method").asText(), d.path("weightA").asLong(), d.path("weightB").asLong(),
                    d.path("delta").asDouble(), mt.path("timeA").asDouble(), mt.path("timeB").asDouble(),
                    mt.path("change").asText(), mt.path("degrees").asInt()));
        }
        // a null written to JSON reads back as a JSON null node
        if (secondPair != null && !secondPair.isNull()) {
            secondPairSection(md, c, secondPair);
        }
        if (draws != null) {
            draws.markdown(md, oldCoordinates, newCoordinates);
        }
        md.append("\n## Attributions\n\n| stage | side | subtree root | nodes | samples | suspects |\n|---|---|---|---|---|---|\n");
        for (JsonNode a : c.path("attributions")) {
            md.append("| ").append(a.path("stage").asText()).append(" | ").append(a.path("side").asText())
                    .append(" | `").append(a.path("method").asText()).append("` | ").append(a.path("nodes").asInt())
                    .append(" | ").append(a.path("samples").asLong()).append(" | ");
            // the suspects are the modified methods on the path upwards: a recursive one repeats
            Set<String> suspects = new LinkedHashSet<>();
            a.path("suspects").forEach(x -> suspects.add(x.asText()));
            for (String x : suspects) {
                md.append('`').append(x).append("` ");
            }
            md.append("|\n");
        }
        md.append(String.format(Locale.ROOT, "%n## Profile migration (seed 001), tolerance %.3f of the root's samples%n%n",
                tolerance));
        migrationTable(md, migration);
        if (samplingMigration != null && samplingZ != null) {
            md.append(String.format(Locale.ROOT, "%n## Profile migration (seed 001), within %.1f standard deviations of the"
                    + " sampling noise%n%nAn entry is correct when its share b' is within %.1f sqrt(2 b (1 - b) / n) of the"
                    + " newer release's share b (n its samples): as close as another run of the same length would be."
                    + " A context the profile lacks is wrong unless the newer release sampled it only a few times (with the"
                    + " absolute tolerance above, every context rarer than the tolerance counts as correct, missing or not).%n%n",
                    samplingZ, samplingZ));
            migrationTable(md, samplingMigration);
        }
        if (migrationDraws != null) {
            migrationDraws.markdown(md, tolerance, samplingZ);
        } else if (secondMigration != null && secondSamplingMigration != null) {
            // reports written before both older JVMs were migrated
            secondMigrationSection(md);
        }
        return md.toString();
    }

    /** The second pair of JVMs next to the first: how far one draw of the comparison can move. */
    private static void secondPairSection(StringBuilder md, JsonNode first, JsonNode second) {
        md.append("\n## Second pair of JVMs (old run 2 → new run 2)\n\n"
                + "The same comparison for the second JVM of each release, with the same noise threshold: a second"
                + " draw, to show how far one pair of JVMs moves the figures.\n\n"
                + "| | pair 1 | pair 2 |\n|---|---|---|\n");
        md.append(String.format(Locale.ROOT, "| samples old / new | %d / %d | %d / %d |%n",
                first.path("a").path("samples").asLong(), first.path("b").path("samples").asLong(),
                second.path("a").path("samples").asLong(), second.path("b").path("samples").asLong()));
        md.append(String.format(Locale.ROOT, "| CCT nodes old / new | %d / %d | %d / %d |%n",
                first.path("a").path("nodes").asInt(), first.path("b").path("nodes").asInt(),
                second.path("a").path("nodes").asInt(), second.path("b").path("nodes").asInt()));
        md.append(String.format(Locale.ROOT, "| common tree (share of old / new) | %d (%.1f %% / %.1f %%) | %d (%.1f %% / %.1f %%) |%n",
                first.path("commonTree").path("size").asInt(), 100 * first.path("commonTree").path("shareOfA").asDouble(),
                100 * first.path("commonTree").path("shareOfB").asDouble(),
                second.path("commonTree").path("size").asInt(), 100 * second.path("commonTree").path("shareOfA").asDouble(),
                100 * second.path("commonTree").path("shareOfB").asDouble()));
        md.append(String.format(Locale.ROOT, "| overlap self / total | %.1f %% / %.1f %% | %.1f %% / %.1f %% |%n",
                100 * first.path("overlap").path("self").asDouble(), 100 * first.path("overlap").path("total").asDouble(),
                100 * second.path("overlap").path("self").asDouble(), 100 * second.path("overlap").path("total").asDouble()));
        md.append(String.format(Locale.ROOT, "| score | %.1f | %.1f |%n", first.path("score").asDouble(),
                second.path("score").asDouble()));
        md.append("| top weight differences | ").append(topDifferences(first)).append(" | ")
                .append(topDifferences(second)).append(" |\n");
    }

    private static String topDifferences(JsonNode comparison) {
        StringBuilder out = new StringBuilder();
        int listed = 0;
        for (JsonNode d : comparison.path("differences")) {
            if (listed++ == 3) {
                break;
            }
            String method = d.path("method").asText();
            // the simple name is enough here; the tables above carry the full signature
            String shortName = method.replaceFirst("\\(.*$", "").replaceFirst("^.*\\.([^.]+\\.[^.]+)$", "$1");
            out.append(listed > 1 ? "; " : "").append('`').append(shortName).append("` ")
                    .append(String.format(Locale.ROOT, "%+.3f", d.path("delta").asDouble()));
        }
        return listed == 0 ? "none beyond noise" : out.toString();
    }

    /** The migration measured against the newer release's second JVM next to the first. */
    private void secondMigrationSection(StringBuilder md) {
        String newRun1 = runs.size() > 2 ? runs.get(2).instance() : "new run 1";
        String newRun2 = runs.size() > 3 ? runs.get(3).instance() : "new run 2";
        md.append(String.format(Locale.ROOT, "%n## Profile migration, second draw: the newer release's second JVM%n%n"
                + "The same older profile (old run 1) migrated and judged against %s's profile, time saved counted in"
                + " its batches, next to the tables above (against %s). Time saved (TS) is the share of the newer"
                + " run's samples a from-scratch profile needed to be as accurate as the migrated one.%n%n", newRun2,
                newRun1));
        md.append("| tolerance | impact analysis | Acc run 1 / run 2 (difference) | TS run 1 / run 2 (difference) |\n"
                + "|---|---|---|---|\n");
        secondMigrationRows(md, String.format(Locale.ROOT, "absolute %.3f", tolerance), migration, secondMigration);
        secondMigrationRows(md, String.format(Locale.ROOT, "sampling, z = %.1f", samplingZ == null ? Double.NaN
                : samplingZ), samplingMigration, secondSamplingMigration);
    }

    private static void secondMigrationRows(StringBuilder md, String tolerance, List<MigrationStudy.Result> first,
            List<MigrationStudy.Result> second) {
        if (first == null) {
            return;
        }
        for (int i = 0; i < Math.min(first.size(), second.size()); i++) {
            MigrationStudy.Result a = first.get(i);
            MigrationStudy.Result b = second.get(i);
            String difference = a.samplesNeeded() < 0 || b.samplesNeeded() < 0 ? "–"
                    : String.format(Locale.ROOT, "%+.1f points", 100 * (b.samplesSavedShare() - a.samplesSavedShare()));
            md.append(String.format(Locale.ROOT, "| %s | %s | %.3f / %.3f (%+.3f) | %s / %s (%s) |%n",
                    tolerance, a.mode(), a.quality().acc(), b.quality().acc(), b.quality().acc() - a.quality().acc(),
                    timeSaved(a), timeSaved(b), difference));
        }
    }

    /** A table cell for time saved: share, samples needed and the newer run's samples, or "not reached". */
    static String timeSaved(MigrationStudy.Result r) {
        return r.samplesNeeded() < 0 ? "not reached (" + r.newSamples() + ")"
                : String.format(Locale.ROOT, "%.1f %% (%d of %d)", 100 * r.samplesSavedShare(), r.samplesNeeded(),
                        r.newSamples());
    }

    private static void migrationTable(StringBuilder md, List<MigrationStudy.Result> migration) {
        md.append("| impact analysis | reusable old nodes | Acc | precision | recall | F | new samples needed for the same Acc |\n|---|---|---|---|---|---|---|\n");
        for (MigrationStudy.Result r : migration) {
            md.append(String.format(Locale.ROOT, "| %s | %d of %d | %.3f | %.3f | %.3f | %.3f | %s |%n", r.mode(),
                    r.reusableNodes(), r.oldNodes(), r.quality().acc(), r.quality().precision(), r.quality().recall(),
                    r.quality().fMeasure(), r.samplesNeeded() < 0 ? "not reached by the whole run ("
                            + r.newSamples() + ")" : r.samplesNeeded() + " of " + r.newSamples() + " ("
                            + r.batchesNeeded() + " batches)"));
        }
    }
}
