package io.cctflow.bench.parcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.cctflow.core.migration.ImpactAnalysis;
import io.cctflow.core.migration.MigrationQuality;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RenderReportTest {
    @TempDir
    Path dir;

    /** A report written before both older JVMs were migrated: the second draw section as before. */
    @Test
    void rendersTheSameMarkdownFromTheJsonAsTheHarnessWrote() throws Exception {
        ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule());
        JsonNode noise = json.readTree("""
                {"overlap": {"self": 0.66, "total": 0.95}, "commonTree": {"size": 3, "shareOfA": 0.5, "shareOfB": 0.6}}""");
        JsonNode comparison = json.readTree("""
                {"a": {"samples": 10, "nodes": 6}, "b": {"samples": 12, "nodes": 5},
                 "commonTree": {"size": 3, "shareOfA": 0.5, "shareOfB": 0.6},
                 "overlap": {"self": 0.8, "total": 0.9}, "score": 31.1, "noise": {"threshold": 0.66},
                 "changes": {"added": 1, "deleted": 0, "modified": 2, "manifests": true},
                 "stages": [{"stage": "ADDED", "subtreesA": 0, "nodesA": 0, "subtreesB": 1, "nodesB": 2}],
                 "differences": [], "attributions": [{"stage": "ADDED", "side": "b", "method": "a.B.c()V", "nodes": 2,
                   "samples": 4, "suspects": ["a.B.d()V", "a.B.d()V"]}]}""");
        JsonNode secondPair = json.readTree("""
                {"a": {"samples": 11, "nodes": 7}, "b": {"samples": 13, "nodes": 6},
                 "commonTree": {"size": 4, "shareOfA": 0.57, "shareOfB": 0.67},
                 "overlap": {"self": 0.6, "total": 0.7}, "score": 20.5, "noise": {"threshold": 0.66},
                 "differences": [{"method": "org.python.core.PyList.append(Lorg/python/core/PyObject;)V", "delta": 0.0312}]}""");
        ReleaseReport report = new ReleaseReport("app", "g:a:1", "g:a:2", 150, ProfiledRun.settings(1, 30),
                List.of(new ProfiledRun("1", "app-1-run1", Duration.ofMillis(181_500), Duration.ofMillis(150_900))),
                new ReleaseReport.Code(10, 100), new ReleaseReport.Code(11, 101), noise, comparison, secondPair,
                List.of(new MigrationStudy.Result(ImpactAnalysis.AG, new MigrationQuality(0.8, 0.9, 0.95, 0.92, 5, 1, 1, 2, 8, 10),
                        5, 6, 200, 3, 12, 1.5)), 0.01,
                List.of(new MigrationStudy.Result(ImpactAnalysis.AG, new MigrationQuality(0.3, 0.5, 0.6, 0.55, 3, 3, 2, 1, 3, 10),
                        3, 6, 7000, 9, 12000, 1.7)), 2.0,
                Draws.of(List.of(Draws.Draw.of("old 1 → new 1 (pair 1)", comparison),
                        Draws.Draw.of("old 2 → new 2 (pair 2)", secondPair)),
                        List.of(Draws.Draw.of("old 1 vs old 2", noise))),
                List.of(new MigrationStudy.Result(ImpactAnalysis.AG, new MigrationQuality(0.7, 0.9, 0.95, 0.92, 5, 1, 1, 2, 7, 10),
                        5, 6, 300, 4, 15, 1.5)),
                List.of(new MigrationStudy.Result(ImpactAnalysis.AG, new MigrationQuality(0.3, 0.5, 0.6, 0.55, 3, 3, 2, 1, 3, 10),
                        3, 6, -1, -1, 11000, 1.7)), null, Duration.ofSeconds(599));
        Path file = dir.resolve("app.json");
        json.writeValue(file.toFile(), report);

        RenderReport.main(new String[] {file.toString()});

        String md = Files.readString(dir.resolve("app.md"));
        assertThat(md).isEqualTo(report.markdown())
                .contains("Harness wall time: 10.0 min")
                .contains("Sampling: agent period=1ms, flush=2s, stackdepth=1024; JVM -XX:+UnlockDiagnosticVMOptions"
                        + " -XX:+DebugNonSafepoints -XX:-TieredCompilation -Xbatch")
                .contains("agent attached after a 30 s warm-up (start-up and warm-up not sampled)")
                .contains("app-1-run1 (1, 181.5 s, 150.9 s of it sampled)")
                .contains("None beyond noise: the releases' self overlap (80.0 %) is not below the noise threshold (66.0 %)")
                .contains("| ADDED | b | `a.B.c()V` | 2 | 4 | `a.B.d()V` |")
                .contains("| common tree (share of old / new) | 3 (50.0 % / 60.0 %) | 4 (57.0 % / 67.0 %) |")
                .contains("| overlap self / total | 80.0 % / 90.0 % | 60.0 % / 70.0 % |")
                .contains("| score | 31.1 | 20.5 |")
                .contains("| top weight differences | none beyond noise | `PyList.append` +0.031 |")
                .contains("## Profile migration (seed 001), tolerance 0.010 of the root's samples")
                .contains("| AG | 5 of 6 | 0.800 | 0.900 | 0.950 | 0.920 | 200 of 12 (3 batches) |")
                .contains("## Profile migration (seed 001), within 2.0 standard deviations of the sampling noise")
                .contains("| AG | 3 of 6 | 0.300 | 0.500 | 0.600 | 0.550 | 7000 of 12000 (9 batches) |")
                .contains("| old 2 → new 2 (pair 2) | 4 (57.0 % / 67.0 %) | 60.0 % / 70.0 % | 20.5 |")
                .contains("| **median (min..max)** | 4 (3..4) (53.5 % (50.0..57.0) / 63.5 % (60.0..67.0)) | 70.0 % (60.0..80.0)"
                        + " / 80.0 % (70.0..90.0) | 25.8 (20.5..31.1) |")
                .contains("| old 1 vs old 2 | 3 (50.0 % / 60.0 %) | 66.0 % (0.660) / 95.0 % |")
                .contains("| absolute 0.010 | AG | 0.800 / 0.700 (-0.100) | 1666.7 % (200 of 12) / 2000.0 % (300 of 15)"
                        + " (+333.3 points) |")
                .contains("| sampling, z = 2.0 | AG | 0.300 / 0.300 (+0.000) | 58.3 % (7000 of 12000) / not reached (11000) (–) |");
    }

    @Test
    void aReportWrittenBeforeTheSecondPairAndTheSamplingToleranceRendersWithoutThem() throws Exception {
        ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule());
        ReleaseReport report = new ReleaseReport("app", "g:a:1", "g:a:2", 150, null, List.of(),
                new ReleaseReport.Code(10, 100), new ReleaseReport.Code(11, 101), json.readTree("{}"), json.readTree("{}"),
                null, List.of(), 0.01, null, null, null, null, null, null, Duration.ofSeconds(60));
        Path file = dir.resolve("old.json");
        json.writeValue(file.toFile(), report);
        // what the harness wrote before: no second pair, no samplingMigration, no samplingZ
        ObjectNode written = (ObjectNode) json.readTree(file.toFile());
        written.remove("secondPair");
        written.remove("samplingMigration");
        written.remove("samplingZ");
        written.remove("draws");
        written.remove("secondMigration");
        written.remove("secondSamplingMigration");
        written.remove("migrationDraws");
        json.writeValue(file.toFile(), written);

        RenderReport.main(new String[] {file.toString()});

        assertThat(Files.readString(dir.resolve("old.md"))).contains("tolerance 0.010 of the root's samples")
                .doesNotContain("sampling noise").doesNotContain("Second pair")
                .doesNotContain("Draws").doesNotContain("second draw").doesNotContain("both older JVMs");
    }

    @Test
    void rendersAllFourMigrationsWithTheirSpreadInsteadOfTheSecondDraw() throws Exception {
        ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule());
        // Acc and samples needed (of 1000; -1: never reached) per migration, AG then BA
        double[][] acc = {{0.8, 0.5}, {0.7, 0.5}, {0.6, 0.5}, {0.9, 0.5}};
        long[][] needed = {{100, 100}, {300, 100}, {200, 100}, {50, -1}};
        double[] samplingAcc = {0.3, 0.4, 0.5, 0.6};
        long[] samplingNeeded = {700, 800, 900, 600};
        String[][] pairs = {{"old 1 → new 1", "app-1-run1", "app-2-run1"}, {"old 1 → new 2", "app-1-run1", "app-2-run2"},
            {"old 2 → new 1", "app-1-run2", "app-2-run1"}, {"old 2 → new 2", "app-1-run2", "app-2-run2"}};
        List<MigrationDraws.MigrationDraw> four = new ArrayList<>();
        for (int m = 0; m < 4; m++) {
            four.add(new MigrationDraws.MigrationDraw(pairs[m][0], pairs[m][1], pairs[m][2],
                    List.of(result(ImpactAnalysis.AG, acc[m][0], needed[m][0]),
                            result(ImpactAnalysis.BA, acc[m][1], needed[m][1])),
                    List.of(result(ImpactAnalysis.AG, samplingAcc[m], samplingNeeded[m]),
                            result(ImpactAnalysis.BA, 0.2, -1))));
        }
        ReleaseReport report = withMigrations(json, MigrationDraws.of(four));
        Path file = dir.resolve("four.json");
        json.writeValue(file.toFile(), report);

        RenderReport.main(new String[] {file.toString()});

        JsonNode written = json.readTree(file.toFile());
        assertThat(written.path("migrationDraws").path("migrations")).hasSize(4);
        assertThat(written.path("migrationDraws").path("migrations").get(1).path("newer").asText()).isEqualTo("app-2-run2");
        JsonNode summary = written.path("migrationDraws").path("summary");
        assertThat(summary).hasSize(4);
        assertThat(summary.get(0).path("tolerance").asText()).isEqualTo("absolute");
        assertThat(summary.get(0).path("mode").asText()).isEqualTo("AG");
        assertThat(summary.get(0).path("acc").path("median").asDouble()).isCloseTo(0.75, within(1e-12));
        assertThat(summary.get(0).path("timeSaved").path("max").asDouble()).isCloseTo(0.3, within(1e-12));
        assertThat(summary.get(1).path("notReached").asInt()).isEqualTo(1);
        assertThat(summary.get(3).path("tolerance").asText()).isEqualTo("sampling");
        assertThat(summary.get(3).path("notReached").asInt()).isEqualTo(4);
        assertThat(written.path("secondMigration").isNull()).isTrue();
        String md = Files.readString(dir.resolve("four.md"));
        assertThat(md).isEqualTo(report.markdown())
                .contains("## Profile migration: both older JVMs to both newer JVMs")
                .contains("The four share JVMs (each older and each newer JVM is in two migrations)")
                .contains("old 1 → new 2: app-1-run1 → app-2-run2; old 2 → new 1: app-1-run2 → app-2-run1")
                .contains("### Absolute tolerance 0.010 of the root's samples")
                .contains("| old 1 → new 1 | AG | 5 of 6 | 0.800 | 0.900 | 0.950 | 0.920 | 10.0 % (100 of 1000) |")
                .contains("| old 2 → new 2 | AG | 5 of 6 | 0.900 | 0.900 | 0.950 | 0.920 | 5.0 % (50 of 1000) |")
                .contains("| **median (min..max)** | AG | | 0.750 (0.600..0.900) | | | | 15.0 % (5.0..30.0) |")
                .contains("| old 2 → new 2 | BA | 5 of 6 | 0.500 | 0.900 | 0.950 | 0.920 | not reached (1000) |")
                .contains("| **median (min..max)** | BA | | 0.500 (0.500..0.500) | | | | 10.0 % (10.0..100.0), 1 not"
                        + " reached, counted as 100 % |")
                .contains("### Within 2.0 standard deviations of the sampling noise")
                .contains("| **median (min..max)** | AG | | 0.450 (0.300..0.600) | | | | 75.0 % (60.0..90.0) |")
                .contains("| **median (min..max)** | BA | | 0.200 (0.200..0.200) | | | | 100.0 % (100.0..100.0), 4 not"
                        + " reached, counted as 100 % |")
                .doesNotContain("second draw").doesNotContain("### Noise");
        // the rows of one impact analysis, then its spread: AG's four before AG's median, before BA's
        assertThat(md.indexOf("| old 2 → new 2 | AG |")).isLessThan(md.indexOf("| **median (min..max)** | AG |"));
        assertThat(md.indexOf("| **median (min..max)** | AG |")).isLessThan(md.indexOf("| old 1 → new 1 | BA |"));
    }

    @Test
    void rendersTheNoiseMigrationsAfterTheReleaseMigrations() throws Exception {
        ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule());
        List<MigrationDraws.MigrationDraw> release = List.of(new MigrationDraws.MigrationDraw("old 1 → new 1",
                "app-1-run1", "app-2-run1", List.of(result(ImpactAnalysis.AG, 0.8, 100)),
                List.of(result(ImpactAnalysis.AG, 0.4, 700))));
        String[][] pairs = {{"old 1 → old 2", "app-1-run1", "app-1-run2"}, {"old 2 → old 1", "app-1-run2", "app-1-run1"},
            {"new 1 → new 2", "app-2-run1", "app-2-run2"}, {"new 2 → new 1", "app-2-run2", "app-2-run1"}};
        long[] needed = {400, 200, -1, 100};
        List<MigrationDraws.MigrationDraw> noise = new ArrayList<>();
        for (int m = 0; m < 4; m++) {
            noise.add(new MigrationDraws.MigrationDraw(pairs[m][0], pairs[m][1], pairs[m][2],
                    List.of(result(ImpactAnalysis.AG, 0.9, needed[m])), List.of(result(ImpactAnalysis.AG, 0.6, 500))));
        }
        ReleaseReport report = withMigrations(json, MigrationDraws.of(release, noise));
        Path file = dir.resolve("noise.json");
        json.writeValue(file.toFile(), report);

        RenderReport.main(new String[] {file.toString()});

        JsonNode written = json.readTree(file.toFile());
        assertThat(written.path("migrationDraws").path("noiseMigrations")).hasSize(4);
        JsonNode summary = written.path("migrationDraws").path("noiseSummary");
        assertThat(summary).hasSize(2);
        // TS 40 %, 20 %, never (100 %), 10 %: median 30 %
        assertThat(summary.get(0).path("timeSaved").path("median").asDouble()).isCloseTo(0.3, within(1e-12));
        assertThat(summary.get(0).path("notReached").asInt()).isEqualTo(1);
        String md = Files.readString(dir.resolve("noise.md"));
        assertThat(md).isEqualTo(report.markdown())
                .contains("### Noise: each JVM's profile migrated to the other JVM of its release")
                .contains("| new 1 → new 2 | AG | 5 of 6 | 0.900 | 0.900 | 0.950 | 0.920 | not reached (1000) |")
                .contains("| **median (min..max)** | AG | | 0.900 (0.900..0.900) | | | | 30.0 % (10.0..100.0), 1 not"
                        + " reached, counted as 100 % |")
                .contains("| **median (min..max)** | AG | | 0.600 (0.600..0.600) | | | | 50.0 % (50.0..50.0) |");
        // after the release migrations' tables
        assertThat(md.indexOf("### Noise")).isGreaterThan(md.indexOf("| old 1 → new 1 | AG |"));
    }

    /** Reports from before migrationDraws render with the second draw, as they did. */
    @Test
    void reportsBeforeTheFourMigrationsRenderAsBefore() throws Exception {
        for (String name : List.of("jython-20261124-2239", "jruby-20261124-2253")) {
            assertThat(renderCopy(Path.of("src", "test", "resources", "parcs", "older-formats", name + ".json"))).as(name)
                    .contains("## Profile migration, second draw: the newer release's second JVM")
                    .doesNotContain("both older JVMs to both newer JVMs");
        }
    }

    /** Reports from before the noise migrations render the four release migrations alone, as they did. */
    @Test
    void reportsBeforeTheNoiseMigrationsRenderWithoutThem() throws Exception {
        for (String name : List.of("jython-20261125-0146", "jruby-20261125-0200")) {
            Path committed = Path.of("src", "test", "resources", "parcs", "older-formats", name + ".json");
            assertThat(renderCopy(committed)).as(name)
                    .isEqualTo(Files.readString(committed.resolveSibling(name + ".md")))
                    .contains("both older JVMs to both newer JVMs").doesNotContain("### Noise");
        }
    }

    /** The current reports, written by the harness, render from their JSON to the very same Markdown. */
    @Test
    void theCommittedReportsRenderToTheirMarkdown() throws Exception {
        for (String app : List.of("jython", "jruby")) {
            Path committed = Path.of("reports", "parcs", app + ".json");
            assertThat(renderCopy(committed)).as(app)
                    .isEqualTo(Files.readString(committed.resolveSibling(app + ".md")))
                    .contains("## Profile migration: both older JVMs to both newer JVMs")
                    .contains("### Noise: each JVM's profile migrated to the other JVM of its release");
        }
    }

    /** Renders a copy of a committed report's JSON in the test's directory and returns its Markdown. */
    private String renderCopy(Path committed) throws Exception {
        assertThat(committed).exists();
        Path copy = Files.copy(committed, dir.resolve(committed.getFileName()));
        RenderReport.main(new String[] {copy.toString()});
        return Files.readString(dir.resolve(committed.getFileName().toString().replaceFirst("\\.json$", ".md")));
    }

    /** A report of a harness with the migration draws: its main migration tables are the first draw's. */
    private static ReleaseReport withMigrations(ObjectMapper json, MigrationDraws draws) throws Exception {
        MigrationDraws.MigrationDraw first = draws.migrations().get(0);
        return new ReleaseReport("app", "g:a:1", "g:a:2", 150, ProfiledRun.settings(1, 30), List.of(),
                new ReleaseReport.Code(10, 100), new ReleaseReport.Code(11, 101), json.readTree("{}"), json.readTree("{}"),
                null, first.absolute(), 0.01, first.sampling(), 2.0, null, null, null, draws, Duration.ofSeconds(60));
    }

    private static MigrationStudy.Result result(ImpactAnalysis mode, double acc, long needed) {
        return new MigrationStudy.Result(mode, new MigrationQuality(acc, 0.9, 0.95, 0.92, 5, 1, 1, 2, 8, 10), 5, 6,
                needed, needed < 0 ? -1 : 2, 1000, 1.0);
    }
}
