package io.cctflow.bench.pipeline;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The pipeline benchmark: Kafka, Flink (the real samples job) and Neo4j embedded on this machine,
 * fed by a simulated fleet whose stacks come from a real recorded application
 * ({@link StackCorpus}), then by synthetic stacks that create new nodes. Prints every figure;
 * options in {@link PipelineBenchOptions#USAGE}; how to run it in bench/README.md.
 */
public final class PipelineBenchmark {
    private PipelineBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("--help")) {
            System.out.print(PipelineBenchOptions.USAGE);
            return;
        }
        PipelineBenchOptions options;
        try {
            options = PipelineBenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Path dataDir = options.dataDir() != null ? options.dataDir()
                : Files.createTempDirectory("cctflow-pipeline-bench-");
        if (Files.exists(dataDir)) {
            try (Stream<Path> entries = Files.list(dataDir)) {
                if (entries.findAny().isPresent()) {
                    System.err.println("--data-dir " + dataDir + " is not empty; give an empty or new directory");
                    System.exit(2);
                }
            }
        }
        routeLogsToFile(dataDir);
        PrintStream out = System.out;
        StackCorpus corpus = StackCorpus.load();
        out.printf("stack corpus %s: %,d samples, %,d distinct stacks, %,d methods, mean depth %.1f frames%n",
                StackCorpus.RESOURCE, corpus.sampleCount(), corpus.stackCount(), corpus.methodCount(), corpus.meanDepth());
        out.printf("machine: %d cores visible, max heap %,d MiB; shared with other builds while measured%n",
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        if (options.phases().contains("drain")) {
            try {
                new DrainPhase(corpus, options).run(dataDir, out);
            } finally {
                if (!options.keepData()) {
                    deleteRecursively(dataDir);
                }
            }
            System.exit(0); // the MiniCluster leaves non-daemon threads behind
        }
        List<Phase> phases = new ArrayList<>();
        for (String name : options.phases()) {
            phases.add(switch (name) {
                case "rate" -> new SustainedRatePhase(corpus, options);
                case "nodes" -> new NewNodesPhase(options.newNodes(), options.nodeDepth(), options.nodeInstances(),
                        options.nodeTimeout());
                default -> new NewTaskPhase(options.nodeTimeout());
            });
        }
        // rate first, on an empty graph; a new task over the nodes the nodes phase made
        phases.sort(Comparator.comparing(p -> p instanceof NewTaskPhase ? 2 : p instanceof NewNodesPhase ? 1 : 0));
        long start = System.nanoTime();
        try (EmbeddedPipeline pipeline = EmbeddedPipeline.start(dataDir, options.jobSettings(), options.partitions())) {
            out.printf("pipeline up in %.1f s (Kafka KRaft, Neo4j, samples job on a MiniCluster; data in %s; job settings %s)%n",
                    (System.nanoTime() - start) / 1e9, dataDir, options.jobSettings());
            for (Phase phase : phases) {
                long phaseStart = System.nanoTime();
                phase.run(pipeline, out);
                out.printf("(%s phase took %.0f s)%n", phase.name(), (System.nanoTime() - phaseStart) / 1e9);
            }
        } finally {
            if (!options.keepData()) {
                deleteRecursively(dataDir);
            }
        }
        out.printf("benchmark done in %.0f s%n", (System.nanoTime() - start) / 1e9);
        System.exit(0); // the MiniCluster leaves non-daemon threads behind
    }

    /** Library logs go to bench.log in the data directory, so the console holds the figures. */
    static void routeLogsToFile(Path dataDir) throws IOException {
        Files.createDirectories(dataDir);
        System.setProperty("slf4j.provider", System.getProperty("slf4j.provider", "org.slf4j.simple.SimpleServiceProvider"));
        System.setProperty("org.slf4j.simpleLogger.logFile",
                System.getProperty("org.slf4j.simpleLogger.logFile", dataDir.resolve("bench.log").toString()));
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
