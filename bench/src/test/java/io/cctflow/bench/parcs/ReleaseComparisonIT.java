package io.cctflow.bench.parcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The release-comparison harness end to end, on a tiny application this test writes: two releases
 * compiled here, installed into a Maven repository layout of their own, each run under the real
 * agent (attached after a warm-up) against the real pipeline ({@code standalone}: Kafka KRaft, the
 * samples job on a Flink MiniCluster, Neo4j, the query API), compared by the compare endpoint,
 * migrated, and written as JSON and Markdown by {@link ReleaseComparison#main}.
 *
 * <p>The releases differ in exactly three methods of {@code parcsapp.Work}: {@code removed} exists
 * only in 1.0, {@code added} only in 1.1, and {@code step} (which calls them) has a different body;
 * every other method ({@code Main.main}, {@code base}, {@code shared}, {@code sqr}, {@code cube},
 * the constructors) compiles to the same bytecode in both. {@code step} also does six times more
 * work of its own in 1.1, so its share of the common tree's self weight grows far beyond the noise
 * of two runs of 1.0, by as much as the shares of {@code base} and {@code shared} together shrink:
 * it is the largest weight difference.
 */
class ReleaseComparisonIT {
    private static final Path STANDALONE_JAR = Path.of(System.getProperty("cctflow.standaloneJar",
            "../standalone/target/cctflow-standalone.jar")).toAbsolutePath().normalize();
    private static final Path AGENT_JAR = Path.of(System.getProperty("cctflow.agentJar",
            "target/cctflow-agent.jar")).toAbsolutePath().normalize();

    private static final String GROUP = "io.cctflow.parcsit";
    private static final String ARTIFACT = "tinyapp";
    private static final String OLD = "1.0";
    private static final String NEW = "1.1";

    /** Identical in both releases: reads the rounds per step from the workload script, runs SECONDS. */
    private static final String MAIN = """
            package parcsapp;

            import java.nio.file.Files;
            import java.nio.file.Path;

            public final class Main {
                public static void main(String[] args) throws Exception {
                    int rounds = Integer.parseInt(Files.readString(Path.of(args[0])).trim());
                    long end = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
                    long x = 1;
                    long steps = 0;
                    while (System.nanoTime() < end) {
                        for (int i = 0; i < 200; i++) {
                            x = Work.base(x, rounds);
                            x = Work.step(x, rounds);
                        }
                        steps += 200;
                    }
                    System.out.println(steps ^ x);
                }
            }
            """;

    /** The methods both releases share, byte for byte. */
    private static final String COMMON = """
                private Work() {
                }

                static long base(long x, int rounds) {
                    for (int i = 0; i < 4 * rounds; i++) {
                        x = x * 0x9E3779B97F4A7C15L + (x >>> 29);
                    }
                    return x;
                }

                static long shared(long x, int rounds) {
                    for (int i = 0; i < rounds; i++) {
                        x ^= x << 13;
                        x ^= x >>> 7;
                        x ^= x << 17;
                    }
                    return x;
                }

                static long sqr(long x, int rounds) {
                    for (int i = 0; i < rounds; i++) {
                        x = x * x + i;
                    }
                    return x;
                }

                static long cube(long x, int rounds) {
                    for (int i = 0; i < rounds; i++) {
                        x = x * x * x + i;
                    }
                    return x;
                }
            """;

    private static final String WORK_OLD = """
            package parcsapp;

            final class Work {
                static long step(long x, int rounds) {
                    long y = x;
                    for (int i = 0; i < rounds; i++) {
                        y = y * 6364136223846793005L + 1442695040888963407L;
                    }
                    y = shared(y, rounds);
                    y = removed(y, rounds);
                    return sqr(y, rounds);
                }

                static long removed(long x, int rounds) {
                    for (int i = 0; i < 2 * rounds; i++) {
                        x = Long.rotateLeft(x, 5) ^ i;
                    }
                    return x;
                }
            """ + COMMON + "}\n";

    private static final String WORK_NEW = """
            package parcsapp;

            final class Work {
                static long step(long x, int rounds) {
                    long y = x;
                    for (int i = 0; i < 6 * rounds; i++) {
                        y = y * 6364136223846793005L + 1442695040888963407L;
                    }
                    y = shared(y, rounds);
                    y = added(y, rounds);
                    return cube(y, rounds);
                }

                static long added(long x, int rounds) {
                    for (int i = 0; i < 2 * rounds; i++) {
                        x = x * 31 + (x >>> 3);
                    }
                    return x;
                }
            """ + COMMON + "}\n";

    @Test
    void comparesTwoReleasesOfATinyApplicationThroughTheRealPipeline() throws Exception {
        Path root = Path.of("target", "release-comparison-it").toAbsolutePath();
        deleteRecursively(root);
        Path repository = root.resolve("repository");
        install(repository, OLD, WORK_OLD, root);
        install(repository, NEW, WORK_NEW, root);
        Path script = Files.writeString(root.resolve("workload.txt"), "400\n");
        Path out = root.resolve("reports");

        // MavenArtifacts.local() reads the repository root from maven.repo.local, as Maven does
        String previous = System.getProperty("maven.repo.local");
        System.setProperty("maven.repo.local", repository.toString());
        try {
            // 20 s sampled: on a loaded machine a freshly attached agent took several seconds to send
            // its first batch, and with 8 s a run's only batch was dropped at exit (2 s shutdown budget)
            ReleaseComparison.main(new String[] {
                "--app", ARTIFACT + "=" + GROUP + ":" + ARTIFACT + ":" + OLD + ":" + NEW + ":" + script,
                "--seconds", "20", "--warmup", "3", "--period", "2", "--top", "10",
                "--out", out.toString(), "--data-dir", root.resolve("data").toString(),
                "--standalone-jar", STANDALONE_JAR.toString(), "--agent-jar", AGENT_JAR.toString()});
        } finally {
            if (previous == null) {
                System.clearProperty("maven.repo.local");
            } else {
                System.setProperty("maven.repo.local", previous);
            }
        }

        JsonNode report = new ObjectMapper().readTree(out.resolve(ARTIFACT + ".json").toFile());
        String markdown = Files.readString(out.resolve(ARTIFACT + ".md"));
        ReportChecks.check(report, markdown);

        // the checks can fail: each of these wrong reports is rejected
        assertRejected(report, markdown, r -> ((ObjectNode) r.path("comparison").path("changes")).put("added", 2));
        assertRejected(report, markdown, r -> {
            for (JsonNode a : r.path("comparison").path("attributions")) {
                if (a.path("stage").asText().equals("DELETED")) {
                    ((ObjectNode) a).put("method", a.path("method").asText().replace("removed", "shared"));
                }
            }
        });
        assertRejected(report, markdown, r -> ((ObjectNode) r.path("newCode")).put("methods", 10));
        assertRejected(report, markdown, r -> ((ObjectNode) r.path("comparison").path("commonTree"))
                .put("size", r.path("comparison").path("a").path("nodes").asInt()));
        assertRejected(report, markdown, r -> ((ObjectNode) r.path("noise").path("overlap")).put("self", 0.0));
        assertRejected(report, markdown, r -> ((ObjectNode) r.path("comparison").path("differences").get(0))
                .put("method", "parcsapp.Work.shared(JI)J"));
        assertRejected(report, markdown, r -> ((ArrayNode) r.path("migration")).remove(2));
        assertRejected(report, markdown, r -> ((ObjectNode) r.path("samplingMigration").get(2)).put("reusableNodes",
                r.path("samplingMigration").get(0).path("oldNodes").asInt()));
        assertRejected(report, markdown, r -> ((ArrayNode) r.path("migrationDraws").path("migrations")).remove(3));
        assertRejected(report, markdown, r -> ((ObjectNode) r.path("migrationDraws").path("migrations").get(2)
                .path("absolute").get(0)).put("reusableNodes", -1));
        assertRejected(report, markdown, r -> ((ObjectNode) r.path("migrationDraws").path("noiseMigrations").get(1))
                .put("newer", r.path("runs").get(2).path("instance").asText()));
        assertRejected(report, markdown, r -> ((ObjectNode) r.path("migrationDraws").path("noiseMigrations").get(3)
                .path("sampling").get(0)).put("reusableNodes", 1));
        assertThatThrownBy(() -> ReportChecks.check(report, markdown.replace("| BA |", "| SL |")))
                .isInstanceOf(AssertionError.class);
    }

    private static void assertRejected(JsonNode report, String markdown, Consumer<JsonNode> wrong) {
        JsonNode copy = report.deepCopy();
        wrong.accept(copy);
        assertThat(copy).isNotEqualTo(report);
        assertThatThrownBy(() -> ReportChecks.check(copy, markdown)).isInstanceOf(AssertionError.class);
    }

    /** What a correct report of this application holds; package-private so a test can feed it wrong reports. */
    static final class ReportChecks {
        private ReportChecks() {
        }

        static void check(JsonNode report, String markdown) {
            assertThat(report.path("oldCoordinates").asText()).isEqualTo(GROUP + ":" + ARTIFACT + ":" + OLD);
            assertThat(report.path("newCoordinates").asText()).isEqualTo(GROUP + ":" + ARTIFACT + ":" + NEW);
            assertThat(report.path("runs")).hasSize(4);

            // PARCS Table 3: Main and Work; Main.<init>, Main.main, Work.<init>, base, step, shared, sqr,
            // cube and removed (1.0) or added (1.1)
            assertThat(report.path("oldCode").path("classes").asInt()).as("classes of 1.0").isEqualTo(2);
            assertThat(report.path("newCode").path("classes").asInt()).as("classes of 1.1").isEqualTo(2);
            assertThat(report.path("oldCode").path("methods").asInt()).as("methods of 1.0").isEqualTo(9);
            assertThat(report.path("newCode").path("methods").asInt()).as("methods of 1.1").isEqualTo(9);

            JsonNode c = report.path("comparison");
            // the change list: exactly one method each, and by name (stage 1 excises the subtree of
            // each added or deleted method it finds; stage 2 names the modified caller as suspect)
            JsonNode changes = c.path("changes");
            assertThat(changes.path("manifests").asBoolean()).as("both CodeManifests stored").isTrue();
            assertThat(changes.path("added").asInt()).as("added methods").isEqualTo(1);
            assertThat(changes.path("deleted").asInt()).as("deleted methods").isEqualTo(1);
            assertThat(changes.path("modified").asInt()).as("modified methods").isEqualTo(1);
            Set<String> attributed = new TreeSet<>();
            for (JsonNode a : c.path("attributions")) {
                attributed.add(a.path("stage").asText() + " " + a.path("side").asText() + " "
                        + shortName(a.path("method").asText()));
                if (a.path("stage").asText().equals("MODIFIED")) {
                    List<String> suspects = new ArrayList<>();
                    a.path("suspects").forEach(s -> suspects.add(shortName(s.asText())));
                    assertThat(suspects).as("suspects of %s", a).containsExactly("Work.step");
                }
            }
            assertThat(attributed).as("attributions").contains("ADDED b Work.added", "DELETED a Work.removed",
                    "MODIFIED a Work.sqr", "MODIFIED b Work.cube");
            assertThat(attributed).as("attributions").noneMatch(a -> a.contains("Work.shared"));

            // PARCS Table 4
            int nodesOld = c.path("a").path("nodes").asInt();
            int nodesNew = c.path("b").path("nodes").asInt();
            int common = c.path("commonTree").path("size").asInt();
            assertThat(c.path("a").path("samples").asLong()).as("samples of 1.0").isPositive();
            assertThat(c.path("b").path("samples").asLong()).as("samples of 1.1").isPositive();
            assertThat(common).as("common tree").isPositive().isLessThan(nodesOld).isLessThan(nodesNew);

            // noise (two runs of 1.0) and the comparison, each with an overlap in (0, 100 %]
            for (String section : List.of("noise", "comparison", "secondPair")) {
                JsonNode overlap = report.path(section).path("overlap");
                assertThat(overlap.isMissingNode()).as("%s section", section).isFalse();
                assertThat(overlap.path("self").asDouble()).as("%s self overlap", section).isGreaterThan(0)
                        .isLessThanOrEqualTo(1);
                assertThat(overlap.path("total").asDouble()).as("%s total overlap", section).isGreaterThan(0)
                        .isLessThanOrEqualTo(1);
            }
            assertThat(c.path("noise").path("source").asText()).isEqualTo("instances");

            // the weight matching ranks the modified step first (see the class comment)
            JsonNode differences = c.path("differences");
            assertThat(differences).as("weight differences beyond noise").isNotEmpty();
            assertThat(shortName(differences.get(0).path("method").asText())).as("top difference")
                    .isEqualTo("Work.step");

            // migration under every impact analysis, with both tolerances
            for (String table : List.of("migration", "samplingMigration")) {
                List<String> modes = new ArrayList<>();
                for (JsonNode r : report.path(table)) {
                    modes.add(r.path("mode").asText());
                    assertThat(r.path("oldNodes").asInt()).as("%s %s old nodes", table, r.path("mode")).isPositive();
                    assertThat(r.path("quality").path("acc").asDouble()).as("%s %s Acc", table, r.path("mode"))
                            .isBetween(0.0, 1.0);
                }
                assertThat(modes).as(table).containsExactly("AG", "AG_CALLER", "BA");
                // each impact analysis marks a superset of the previous one's affected nodes, and
                // every one marks the contexts of the modified step
                JsonNode t = report.path(table);
                int oldNodes = t.get(0).path("oldNodes").asInt();
                assertThat(t.get(0).path("reusableNodes").asInt()).as("%s AG reusable", table).isLessThan(oldNodes)
                        .isGreaterThanOrEqualTo(t.get(1).path("reusableNodes").asInt());
                assertThat(t.get(1).path("reusableNodes").asInt()).as("%s AG_CALLER reusable", table)
                        .isGreaterThanOrEqualTo(t.get(2).path("reusableNodes").asInt());
            }

            // both older profiles migrated to both newer JVMs; the first of the four is the tables above
            JsonNode four = report.path("migrationDraws").path("migrations");
            List<String> pairings = new ArrayList<>();
            four.forEach(m -> pairings.add(m.path("pairing").asText()));
            assertThat(pairings).as("migrations").containsExactly("old 1 → new 1", "old 1 → new 2", "old 2 → new 1",
                    "old 2 → new 2");
            assertThat(four.get(0).path("absolute")).as("old 1 → new 1, absolute").isEqualTo(report.path("migration"));
            assertThat(four.get(0).path("sampling")).as("old 1 → new 1, sampling")
                    .isEqualTo(report.path("samplingMigration"));
            for (int m = 0; m < 4; m++) {
                for (String table : List.of("absolute", "sampling")) {
                    JsonNode t = four.get(m).path(table);
                    List<String> modes = new ArrayList<>();
                    t.forEach(r -> modes.add(r.path("mode").asText()));
                    assertThat(modes).as("%s %s", pairings.get(m), table).containsExactly("AG", "AG_CALLER", "BA");
                    // the same older profile reuses the same nodes whichever newer JVM it is judged against,
                    // and the same newer JVM has the same samples whichever older profile is migrated
                    JsonNode sameOlder = four.get(m ^ 1).path(table);
                    JsonNode sameNewer = four.get(m ^ 2).path(table);
                    for (int j = 0; j < 3; j++) {
                        assertThat(t.get(j).path("reusableNodes").asInt()).as("%s %s reusable", pairings.get(m), table)
                                .isEqualTo(sameOlder.get(j).path("reusableNodes").asInt());
                        assertThat(t.get(j).path("newSamples").asLong()).as("%s %s new samples", pairings.get(m), table)
                                .isPositive().isEqualTo(sameNewer.get(j).path("newSamples").asLong());
                    }
                }
            }
            JsonNode summary = report.path("migrationDraws").path("summary");
            assertThat(summary).as("summary rows: two tolerances, three impact analyses").hasSize(6);
            for (JsonNode s : summary) {
                for (String figure : List.of("acc", "timeSaved")) {
                    JsonNode spread = s.path(figure);
                    assertThat(spread.path("median").asDouble()).as("%s %s %s", s.path("tolerance"), s.path("mode"), figure)
                            .isBetween(spread.path("min").asDouble(), spread.path("max").asDouble());
                }
            }
            assertThat(markdown).contains("## Profile migration: both older JVMs to both newer JVMs",
                    "| old 2 → new 2 | BA |", "| **median (min..max)** | AG_CALLER |");

            // the noise of those figures: each JVM's profile migrated to the other JVM of its release,
            // with no change, so every node of the older profile is reusable
            JsonNode noise = report.path("migrationDraws").path("noiseMigrations");
            List<String> noisePairings = new ArrayList<>();
            noise.forEach(m -> noisePairings.add(m.path("pairing").asText()));
            assertThat(noisePairings).as("noise migrations").containsExactly("old 1 → old 2", "old 2 → old 1",
                    "new 1 → new 2", "new 2 → new 1");
            for (int m = 0; m < 4; m++) {
                assertThat(noise.get(m).path("older").asText()).as(noisePairings.get(m))
                        .isEqualTo(report.path("runs").get(m).path("instance").asText());
                assertThat(noise.get(m).path("newer").asText()).as(noisePairings.get(m))
                        .isEqualTo(report.path("runs").get(m ^ 1).path("instance").asText());
                for (String table : List.of("absolute", "sampling")) {
                    JsonNode t = noise.get(m).path(table);
                    assertThat(t).as("%s %s: AG alone", noisePairings.get(m), table).hasSize(1);
                    assertThat(t.get(0).path("mode").asText()).isEqualTo("AG");
                    assertThat(t.get(0).path("reusableNodes").asInt()).as("%s %s reusable", noisePairings.get(m), table)
                            .isPositive().isEqualTo(t.get(0).path("oldNodes").asInt());
                }
            }
            assertThat(report.path("migrationDraws").path("noiseSummary")).as("noise summary: two tolerances, AG")
                    .hasSize(2);
            assertThat(markdown).contains("### Noise: each JVM's profile migrated to the other JVM of its release",
                    "| new 2 → new 1 | AG |");

            assertThat(markdown).contains("# " + ARTIFACT + ": " + GROUP + ":" + ARTIFACT + ":" + OLD,
                    "| classes (loaded, fingerprinted) | 2 | 2 |", "| methods | 9 | 9 |",
                    "Change list: 1 added, 1 deleted, 1 modified methods (manifests on both sides: true).",
                    "## Trees (PARCS Table 4)", "## Noise (two runs of ", "## Top weight differences",
                    "| `" + differences.get(0).path("method").asText() + "` |", "## Attributions",
                    "## Profile migration (seed 001)", "| AG |", "| AG_CALLER |", "| BA |");
        }

        /** {@code parcsapp.Work.step(JI)J} as {@code Work.step}. */
        static String shortName(String method) {
            return method.replaceFirst("\\(.*$", "").replaceFirst("^.*\\.([^.]+\\.[^.]+)$", "$1");
        }
    }

    /** Compiles one release and installs its runnable jar as Maven lays out a local repository. */
    private static void install(Path repository, String version, String work, Path root) throws IOException {
        Path sources = root.resolve("src-" + version).resolve("parcsapp");
        Files.createDirectories(sources);
        Path mainSource = Files.writeString(sources.resolve("Main.java"), MAIN);
        Path workSource = Files.writeString(sources.resolve("Work.java"), work);
        Path classes = Files.createDirectories(root.resolve("classes-" + version));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        boolean compiled = javac.getTask(diagnostics, null, null,
                List.of("--release", "17", "-d", classes.toString()), null,
                javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)
                        .getJavaFileObjects(mainSource.toFile(), workSource.toFile())).call();
        assertThat(compiled).as("javac: %s", diagnostics).isTrue();
        Path jar = repository.resolve(GROUP.replace('.', '/')).resolve(ARTIFACT).resolve(version)
                .resolve(ARTIFACT + "-" + version + ".jar");
        Files.createDirectories(jar.getParent());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "parcsapp.Main");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest);
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
