package io.cctflow.bench.parcs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.core.migration.ImpactAnalysis;
import io.cctflow.core.migration.ShareTolerance;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.schema.SampleBatch;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoublePredicate;
import org.neo4j.driver.Driver;

/**
 * Compares two close releases of real applications as PARCS did (seed 000 Tables 3 and 4), through
 * cctflow's real pipeline: each release runs the same workload under the agent, the pipeline
 * stores both trees and CodeManifests, and the query service's compare endpoint does the diff.
 * Runs each release twice: the two runs of a release are a noise pair (seed 000 Sect. 3.4), and the
 * four pairings of an older and a newer JVM are four draws of the comparison ({@link Draws}). Migrates
 * each older JVM's profile to each of the newer release's JVMs (seed 001, {@link MigrationDraws}),
 * and each JVM's profile to the other JVM of its release, for the noise of those figures.
 * Writes {@code <app>.md} and {@code <app>.json} per application.
 */
public final class ReleaseComparison {
    static final String USAGE = """
            usage: java -cp 'bench/target/classes:bench/target/lib/*' io.cctflow.bench.parcs.ReleaseComparison [options]

              --app NAME           jython, jruby, or NAME=GROUP:ARTIFACT:OLD:NEW:SCRIPT; repeatable
                                   (default: jython and jruby)
              --seconds N          sampled length of each run (default 150)
              --warmup N           seconds each run works before the agent is attached, so start-up and
                                   JIT warm-up are not sampled; 0: -javaagent from the start (default 30)
              --period MS          the agent's sampling period in milliseconds, 1..1000 (default 1)
              --out DIR            where the reports go (default bench/reports/parcs)
              --data-dir DIR       pipeline data, one fresh directory per application (default target/parcs)
              --standalone-jar F   default standalone/target/cctflow-standalone.jar
              --agent-jar F        default standalone/target/cctflow-agent.jar
              --tolerance X        migration: share difference still counted as correct (default 0.01)
              --sampling-z Z       migration, second table: a share is correct within Z standard deviations
                                   of the sampling noise of the newer release's profile (default 2)
              --top N              weight differences and attributions listed (default 15)
              --replicated yes|no  also run the older release twice more (runs 3 and 4) and compare with
                                   instances as replicates: old {1, 2} vs old {3, 4} (same release) and
                                   old {1, 2} -> new {1, 2} (default no)
            """;
    static final String SAMPLES_TOPIC = "cctflow.samples";

    private ReleaseComparison() {
    }

    record Options(List<Application> apps, int seconds, int warmupSeconds, int periodMillis, Path out, Path dataDir, Path standaloneJar, Path agentJar,
            double tolerance, double samplingZ, int top, boolean replicated) {

        static Options parse(String... args) {
            List<Application> apps = new ArrayList<>();
            int seconds = 150;
            int warmup = 30;
            int period = 1;
            Path out = Path.of("bench/reports/parcs");
            Path data = Path.of("target/parcs");
            Path standalone = Path.of("standalone/target/cctflow-standalone.jar");
            Path agent = Path.of("standalone/target/cctflow-agent.jar");
            double tolerance = 0.01;
            double samplingZ = 2;
            int top = 15;
            boolean replicated = false;
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
                }
                String v = args[++i];
                switch (option) {
                    case "--app" -> apps.add(Application.parse(v));
                    case "--seconds" -> seconds = positive(option, v);
                    case "--warmup" -> warmup = notNegative(option, v);
                    case "--period" -> {
                        period = positive(option, v);
                        if (period > 1000) {
                            throw new IllegalArgumentException("--period must be 1..1000 milliseconds, got '" + v + "'");
                        }
                    }
                    case "--out" -> out = Path.of(v);
                    case "--data-dir" -> data = Path.of(v);
                    case "--standalone-jar" -> standalone = Path.of(v);
                    case "--agent-jar" -> agent = Path.of(v);
                    case "--top" -> top = positive(option, v);
                    case "--replicated" -> {
                        if (!v.equals("yes") && !v.equals("no")) {
                            throw new IllegalArgumentException("--replicated must be yes or no, got '" + v + "'");
                        }
                        replicated = v.equals("yes");
                    }
                    case "--tolerance" -> tolerance = boundedDouble(option, v, x -> x >= 0 && x < 1, "[0, 1)");
                    case "--sampling-z" -> samplingZ = boundedDouble(option, v, x -> x > 0 && x <= 10, "(0, 10]");
                    default -> throw new IllegalArgumentException("unknown option '" + option + "'\n" + USAGE);
                }
            }
            if (apps.isEmpty()) {
                apps = List.of(Application.BUILT_IN.get("jython"), Application.BUILT_IN.get("jruby"));
            }
            return new Options(apps, seconds, warmup, period, out, data, standalone, agent, tolerance,
                    samplingZ, top, replicated);
        }

        /**
         * {@code v} as a number {@code inRange} accepts.
         *
         * @param range the accepted range as the message states it, e.g. {@code [0, 1)}
         */
        private static double boundedDouble(String option, String v, DoublePredicate inRange, String range) {
            try {
                double x = Double.parseDouble(v);
                if (inRange.test(x)) {
                    return x;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(option + " must be a number in " + range + ", got '" + v + "'");
        }

        private static int notNegative(String option, String v) {
            try {
                int n = Integer.parseInt(v);
                if (n >= 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(option + " must be a whole number of seconds, 0 or more, got '" + v + "'");
        }

        private static int positive(String option, String v) {
            try {
                int n = Integer.parseInt(v);
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(option + " must be a positive whole number, got '" + v + "'");
        }
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Files.createDirectories(options.out());
        for (Application app : options.apps()) {
            long start = System.nanoTime();
            ReleaseReport report = compare(app, options);
            ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
                    .enable(SerializationFeature.INDENT_OUTPUT);
            json.writeValue(options.out().resolve(app.name() + ".json").toFile(), report);
            Files.writeString(options.out().resolve(app.name() + ".md"), report.markdown());
            step(app, String.format("report in %s (%.1f min)", options.out().resolve(app.name() + ".md"),
                    (System.nanoTime() - start) / 60e9));
        }
    }

    static ReleaseReport compare(Application app, Options options) throws Exception {
        long start = System.nanoTime();
        MavenArtifacts maven = MavenArtifacts.local();
        Path oldJar = maven.jar(app.groupId(), app.artifactId(), app.oldVersion());
        Path newJar = maven.jar(app.groupId(), app.artifactId(), app.newVersion());
        Path data = options.dataDir().resolve(app.name() + "-" + System.currentTimeMillis()).toAbsolutePath();
        Path script = script(app, data);
        step(app, "starting the pipeline (standalone) in " + data);
        try (PipelineProcess pipeline = PipelineProcess.start(options.standaloneJar(), data.resolve("pipeline"),
                Duration.ofMinutes(3))) {
            List<ProfiledRun> runs = new ArrayList<>();
            // two JVMs per release: the second pair (old run 2 -> new run 2) is a second draw of the
            // release comparison, so one harness run shows how far a pair of JVMs can move it
            String[][] plan = {{app.oldVersion(), "run1"}, {app.oldVersion(), "run2"}, {app.newVersion(), "run1"},
                {app.newVersion(), "run2"}};
            for (String[] p : plan) {
                runs.add(run(app, options, p[0], p[1], p[0].equals(app.oldVersion()) ? oldJar : newJar, script, pipeline,
                        data));
            }
            // with --replicated, two more JVMs of the older release: sides of two instances each
            List<ProfiledRun> moreOld = new ArrayList<>();
            for (String name : options.replicated() ? List.of("run3", "run4") : List.<String>of()) {
                moreOld.add(run(app, options, app.oldVersion(), name, oldJar, script, pipeline, data));
            }
            GraphStoreConfig graph = GraphStoreConfig.unauthenticated(pipeline.boltUri());
            try (Driver driver = graph.openDriver()) {
                CatalogueReader reader = new CatalogueReader(driver, graph.database());
                StoredProfiles stored = new StoredProfiles(new WindowReader(driver, graph.database()),
                        new TopologyReader(driver, graph.database()));
                List<ProfiledRun> all = new ArrayList<>(runs);
                all.addAll(moreOld);
                step(app, "waiting until " + all.stream().map(ProfiledRun::instance).toList() + " are stored");
                Cct[] trees = stored.awaitSettled(all.stream().map(r -> execution(app, r)).toList(), Duration.ofMinutes(3))
                        .subList(0, runs.size()).toArray(new Cct[0]);
                CompareClient client = new CompareClient(pipeline.api());
                CompareClient.Side old1 = side(runs.get(0));
                CompareClient.Side old2 = side(runs.get(1));
                CompareClient.Side new1 = side(runs.get(2));
                CompareClient.Side new2 = side(runs.get(3));
                step(app, "comparing (noise of both releases, then the releases: four pairings of their JVMs)");
                JsonNode noise = client.compare(app.name(), old1, old2, null, options.top());
                JsonNode newNoise = client.compare(app.name(), new1, new2, null, options.top());
                CompareClient.Side[] noisePair = {old1, old2};
                JsonNode comparison = client.compare(app.name(), old1, new1, noisePair, options.top());
                JsonNode secondPair = client.compare(app.name(), old2, new2, noisePair, options.top());
                JsonNode cross12 = client.compare(app.name(), old1, new2, noisePair, options.top());
                JsonNode cross21 = client.compare(app.name(), old2, new1, noisePair, options.top());
                step(app, "verdicts (per-method significance, FDR 5 %): old 1 vs old 2: " + verdict(noise)
                        + "; new 1 vs new 2: " + verdict(newNoise) + "; old 1 -> new 1: " + verdict(comparison)
                        + "; old 2 -> new 2: " + verdict(secondPair));
                if (!moreOld.isEmpty()) {
                    CompareClient.Side olds = CompareClient.Side.of(old1, old2);
                    CompareClient.Side moreOlds = CompareClient.Side.of(side(moreOld.get(0)), side(moreOld.get(1)));
                    CompareClient.Side news = CompareClient.Side.of(new1, new2);
                    step(app, "verdicts with instances as replicates: old {1, 2} vs old {3, 4}: "
                            + verdict(client.compare(app.name(), olds, moreOlds, null, options.top()))
                            + "; old {1, 2} -> new {1, 2}: "
                            + verdict(client.compare(app.name(), olds, news, null, options.top())));
                }
                Draws draws = Draws.of(
                        List.of(Draws.Draw.of("old 1 → new 1 (pair 1)", comparison),
                                Draws.Draw.of("old 2 → new 2 (pair 2)", secondPair),
                                Draws.Draw.of("old 1 → new 2", cross12), Draws.Draw.of("old 2 → new 1", cross21)),
                        List.of(Draws.Draw.of("old 1 vs old 2", noise), Draws.Draw.of("new 1 vs new 2", newNoise)));
                CodeManifests code = CodeManifests.read(reader, app.name(), app.oldVersion(), app.newVersion());
                List<ShareTolerance> tolerances = List.of(ShareTolerance.absolute(options.tolerance()),
                        ShareTolerance.sampling(options.samplingZ()));
                List<List<SampleBatch>> batches = new ArrayList<>();
                for (ProfiledRun run : runs) {
                    batches.add(KafkaBatches.of(pipeline.kafkaBootstrap(), SAMPLES_TOPIC, execution(app, run)));
                }
                // each JVM's prefix profiles are built once: against a newer JVM both older profiles are
                // migrated, and the other newer JVM's with no change (the noise of Acc and time saved)
                MigrationStudy.Older olderRun1 = new MigrationStudy.Older(trees[0], code.changes());
                MigrationStudy.Older olderRun2 = new MigrationStudy.Older(trees[1], code.changes());
                step(app, "migrating both older profiles (AG, AG_CALLER, BA) and new run 2's to new run 1");
                List<List<List<MigrationStudy.Result>>> toNew1 = MigrationStudy.run(
                        List.of(olderRun1, olderRun2, new MigrationStudy.Older(trees[3], ChangeList.NONE)), trees[2],
                        batches.get(2), tolerances);
                step(app, "migrating both older profiles and new run 1's to new run 2");
                List<List<List<MigrationStudy.Result>>> toNew2 = MigrationStudy.run(
                        List.of(olderRun1, olderRun2, new MigrationStudy.Older(trees[2], ChangeList.NONE)), trees[3],
                        batches.get(3), tolerances);
                step(app, "migrating each older JVM's profile to the other older JVM (no change)");
                List<List<MigrationStudy.Result>> toOld1 = MigrationStudy.run(trees[1], trees[0], ChangeList.NONE,
                        batches.get(0), tolerances);
                List<List<MigrationStudy.Result>> toOld2 = MigrationStudy.run(trees[0], trees[1], ChangeList.NONE,
                        batches.get(1), tolerances);
                List<MigrationDraws.MigrationDraw> noiseMigrations = List.of(
                        noiseDraw("old 1 → old 2", runs.get(0), runs.get(1), toOld2),
                        noiseDraw("old 2 → old 1", runs.get(1), runs.get(0), toOld1),
                        noiseDraw("new 1 → new 2", runs.get(2), runs.get(3), toNew2.get(2)),
                        noiseDraw("new 2 → new 1", runs.get(3), runs.get(2), toNew1.get(2)));
                MigrationDraws migrationDraws = MigrationDraws.of(List.of(
                        migrationDraw("old 1 → new 1", runs.get(0), runs.get(2), toNew1.get(0)),
                        migrationDraw("old 1 → new 2", runs.get(0), runs.get(3), toNew2.get(0)),
                        migrationDraw("old 2 → new 1", runs.get(1), runs.get(2), toNew1.get(1)),
                        migrationDraw("old 2 → new 2", runs.get(1), runs.get(3), toNew2.get(1))), noiseMigrations);
                return new ReleaseReport(app.name(), app.coordinates(app.oldVersion()),
                        app.coordinates(app.newVersion()), options.seconds(), ProfiledRun.settings(options.periodMillis(), options.warmupSeconds()),
                        runs, code.oldCode(), code.newCode(), noise, comparison, secondPair, toNew1.get(0).get(0),
                        options.tolerance(), toNew1.get(0).get(1), options.samplingZ(), draws, null, null,
                        migrationDraws, Duration.ofNanos(System.nanoTime() - start));
            }
        }
    }

    /** @param results per tolerance (absolute, sampling), as {@link MigrationStudy#run} returns them */
    private static MigrationDraws.MigrationDraw migrationDraw(String pairing, ProfiledRun older, ProfiledRun newer,
            List<List<MigrationStudy.Result>> results) {
        return new MigrationDraws.MigrationDraw(pairing, older.instance(), newer.instance(), results.get(0),
                results.get(1));
    }

    /** A migration within one release: with no change every impact analysis reuses every node, so AG stands for all three. */
    private static MigrationDraws.MigrationDraw noiseDraw(String pairing, ProfiledRun older, ProfiledRun newer,
            List<List<MigrationStudy.Result>> results) {
        return migrationDraw(pairing, older, newer, List.of(onlyAg(results.get(0)), onlyAg(results.get(1))));
    }

    private static List<MigrationStudy.Result> onlyAg(List<MigrationStudy.Result> results) {
        return results.stream().filter(r -> r.mode() == ImpactAnalysis.AG).toList();
    }

    /** One JVM of {@code version} under the agent, publishing to the pipeline. */
    private static ProfiledRun run(Application app, Options options, String version, String name, Path jar, Path script,
            PipelineProcess pipeline, Path data) throws IOException, InterruptedException {
        String instance = app.name() + "-" + version + "-" + name;
        step(app, "running " + app.coordinates(version) + " as " + instance + " for " + options.warmupSeconds()
                + " s warm-up + " + options.seconds() + " s sampled");
        return ProfiledRun.run(app, version, instance, jar, script, options.warmupSeconds(), options.seconds(),
                options.periodMillis(), options.agentJar(), pipeline.kafkaBootstrap(), data.resolve(instance + ".log"));
    }

    private static CompareClient.Side side(ProfiledRun run) {
        return new CompareClient.Side(run.version(), run.instance());
    }

    private static ExecutionId execution(Application app, ProfiledRun run) {
        return new ExecutionId(app.name(), run.version(), run.instance());
    }

    /** The workload script as a file: a class-path resource is copied out, a file is used as is. */
    private static Path script(Application app, Path data) throws IOException {
        Path file = Path.of(app.script());
        if (Files.isRegularFile(file)) {
            return file.toAbsolutePath();
        }
        try (InputStream in = ReleaseComparison.class.getClassLoader().getResourceAsStream(app.script())) {
            if (in == null) {
                throw new IOException("workload script '" + app.script() + "' is neither a file nor a resource");
            }
            Files.createDirectories(data);
            Path out = data.resolve(Path.of(app.script()).getFileName());
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
            return out;
        }
    }

    /** The compare answer's verdict, its noise model and its three most significant methods. */
    static String verdict(JsonNode compare) {
        JsonNode sg = compare.path("significance");
        StringBuilder out = new StringBuilder(compare.path("message").asText()).append(" (")
                .append(sg.path("replicatesA").asInt()).append(' ').append(sg.path("unitA").asText()).append(" vs ")
                .append(sg.path("replicatesB").asInt()).append(' ').append(sg.path("unitB").asText());
        int shown = 0;
        for (JsonNode row : compare.path("methods")) {
            if (shown++ == 3) {
                break;
            }
            out.append(String.format(Locale.ROOT, "; %s %s q %.2g/%.2g", row.path("change").asText(),
                    row.path("method").asText(), row.at("/methodTime/qValue").asDouble(),
                    row.at("/selfTime/qValue").asDouble()));
        }
        return out.append(')').toString();
    }

    private static void step(Application app, String what) {
        System.out.printf("[%s] %s%n", app.name(), what);
    }
}
