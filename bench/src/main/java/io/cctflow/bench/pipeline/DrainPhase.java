package io.cctflow.bench.pipeline;

import io.cctflow.core.ExecutionId;
import io.cctflow.flink.JobTopics;
import io.cctflow.flink.SamplesJob;
import io.cctflow.flink.SamplesJobConfig;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.WindowCounts;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.servers.KafkaServer;
import io.cctflow.servers.Neo4jServer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.neo4j.driver.Driver;

/**
 * CPU per sample on a fixed amount of work, comparable run to run: a backlog of N instances x M
 * batches (the rate phase's generator, fixed seed, windows in the past) is published before any
 * job starts; then each run starts the samples job on a fresh Neo4j under its own consumer group
 * (so it reads the whole backlog from the earliest offset) and measures, from submitting the job
 * until its group has committed every record, the CPU of this JVM (job, its GC and JIT, embedded
 * Neo4j; nothing generates meanwhile) and of the broker, split by thread role as the rate phase
 * splits it. Then it checks that Neo4j's windows hold every sample. Runs alternate between the
 * configurations, round by round, so drift of the machine's load hits each alike.
 */
public final class DrainPhase {
    private static final String WARMUP_TOPIC = "cctflow-bench-warmup-samples";

    private final StackCorpus corpus;
    private final PipelineBenchOptions options;
    private final PipelineBenchOptions.Drain drain;
    private int runs;

    /** One measured drain. */
    record Run(double cpuSeconds, double startupCpuSeconds, double wallSeconds, long samples, String split,
            String machine) {
        double microsPerSample() {
            return cpuSeconds * 1e6 / samples;
        }

        double microsPerSampleAfterStartup() {
            return (cpuSeconds - startupCpuSeconds) * 1e6 / samples;
        }

        double samplesPerSecond() {
            return samples / wallSeconds;
        }
    }

    /** A backlog on a topic: its first window start and the samples it holds in total. */
    private record Backlog(String topic, String prefix, int instances, int batches, long fromMillis, long toMillis,
            long samples) {
    }

    public DrainPhase(StackCorpus corpus, PipelineBenchOptions options) {
        this.corpus = corpus;
        this.options = options;
        this.drain = options.drain();
    }

    public void run(Path dataDir, PrintStream out) throws Exception {
        SamplesJobConfig defaults = SamplesJobConfig.defaults();
        try (KafkaServer kafka = EmbeddedPipeline.startKafka(dataDir.resolve("kafka"), options.partitions());
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                        EmbeddedPipeline.producerProperties(kafka.bootstrapServers()))) {
            Backlog measured = publish(producer, defaults.samplesTopic(), "fleet", drain.batches(), options.seed(), out);
            Backlog warmup = null;
            if (drain.warmupBatches() > 0) {
                kafka.createTopic(WARMUP_TOPIC, options.partitions(), JobTopics.agentTopicConfigs());
                warmup = publish(producer, WARMUP_TOPIC, "warmup", drain.warmupBatches(), options.seed() + 1, out);
            }
            List<List<Run>> byConfig = new ArrayList<>();
            drain.configs().forEach(c -> byConfig.add(new ArrayList<>()));
            if (warmup != null) {
                out.printf("%n-- warm-up (not measured): configuration 1 drains %s%n", warmup.topic());
                drainOnce(kafka, dataDir, drain.configs().get(0), warmup, out);
            }
            for (int round = 1; round <= drain.rounds(); round++) {
                for (int c = 0; c < drain.configs().size(); c++) {
                    out.printf("%n-- round %d, configuration %d %s%s%n", round, c + 1, drain.configs().get(c),
                            warmup == null && round == 1 && c == 0 ? " (JIT-cold: first job run of this JVM)" : "");
                    byConfig.get(c).add(drainOnce(kafka, dataDir, drain.configs().get(c), measured, out));
                }
            }
            summarize(byConfig, measured, warmup != null, out);
        }
    }

    /** Publishes instances x batches batches, batch b of every instance before batch b + 1, and waits for every ack. */
    private Backlog publish(KafkaProducer<byte[], byte[]> producer, String topic, String prefix, int batches, long seed,
            PrintStream out) {
        long flush = options.flushMillis();
        long window = SamplesJobConfig.defaults().window().toMillis();
        long now = System.currentTimeMillis();
        // whole job windows in the past, as a backlog of a fleet the job was away from
        long from = now - Math.floorMod(now, window) - ((batches * flush + window - 1) / window + 1) * window;
        Random random = new Random(seed);
        EncodedFleetBatches encoded = new EncodedFleetBatches(new FleetBatches(corpus, options.busyThreads(),
                options.periodMillis(), flush, random), options.batchPool(), random);
        int instances = drain.instances();
        InstanceInfo[] infos = new InstanceInfo[instances];
        String[] keys = new String[instances];
        for (int i = 0; i < instances; i++) {
            infos[i] = FleetBatches.instance(prefix, i, from);
            keys[i] = key(infos[i]);
        }
        long start = System.nanoTime();
        long bytes = 0;
        List<CompletableFuture<Void>> acks = new ArrayList<>(instances * batches);
        for (int b = 0; b < batches; b++) {
            for (int i = 0; i < instances; i++) {
                byte[] batch = encoded.encode(infos[i], b, from + b * flush, from + (b + 1) * flush);
                bytes += batch.length;
                acks.add(EmbeddedPipeline.send(producer, topic, keys[i], batch));
            }
        }
        CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).join();
        long samples = (long) instances * batches * encoded.samplesPerBatch();
        out.printf("published to %s: %,d instances x %,d batches = %,d batches, %,d samples (%,d per batch), %,.1f MB"
                        + " (%.1f bytes per sample as Avro, before the producer's lz4) in %.1f s%n", topic, instances, batches,
                (long) instances * batches, samples, encoded.samplesPerBatch(), bytes / 1e6, bytes / (double) samples,
                (System.nanoTime() - start) / 1e9);
        return new Backlog(topic, prefix, instances, batches, from, from + batches * flush, samples);
    }

    private Run drainOnce(KafkaServer kafka, Path dataDir, Map<String, String> overrides, Backlog backlog,
            PrintStream out) throws Exception {
        Path dir = dataDir.resolve("run-" + ++runs);
        String group = "cctflow-bench-drain-" + runs;
        try (Neo4jServer neo4j = Neo4jServer.start(dir.resolve("neo4j"));
                ConsumerLag lag = new ConsumerLag(kafka.bootstrapServers(), backlog.topic(), group)) {
            Map<String, String> settings = new HashMap<>(options.jobSettings());
            settings.putAll(overrides);
            settings.put(SamplesJobConfig.BOOTSTRAP_SERVERS, kafka.bootstrapServers());
            settings.put(SamplesJobConfig.NEO4J_URI, neo4j.boltUri());
            settings.put(SamplesJobConfig.GROUP_ID, group);
            settings.put(SamplesJobConfig.SAMPLES_TOPIC, backlog.topic());
            SamplesJobConfig config = SamplesJobConfig.defaults().with(settings);
            long target = lag.read().endOffsets();
            System.gc(); // the previous run's garbage is not this run's cost
            MachineLoad machineStart = MachineLoad.now();
            CpuShares cpuStart = CpuShares.now();
            Recording jfr = drain.jfrDir() == null ? null : startRecording();
            long start = System.nanoTime();
            JobClient job = SamplesJob.start(EmbeddedPipeline.flinkEnvironment(dir.resolve("flink")), config);
            try {
                long deadline = start + drain.timeout().toNanos();
                for (JobStatus status = job.getJobStatus().get(1, TimeUnit.MINUTES); status != JobStatus.RUNNING;
                        status = job.getJobStatus().get(1, TimeUnit.MINUTES)) {
                    if (status.isGloballyTerminalState() || System.nanoTime() > deadline) {
                        throw new IllegalStateException("run " + runs + ": the job is " + status + ", not running,"
                                + " within --drain-timeout " + drain.timeout());
                    }
                    Thread.sleep(50);
                }
                double startupCpu = CpuShares.now().allNanosSince(cpuStart) / 1e9;
                ConsumerLag.Snapshot s = lag.read();
                while (s.committedOffsets() < target) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("run " + runs + " committed " + s.committedOffsets() + " of "
                                + target + " records within --drain-timeout " + drain.timeout());
                    }
                    Thread.sleep(200);
                    s = lag.read();
                }
                double wall = (System.nanoTime() - start) / 1e9;
                CpuShares cpuEnd = CpuShares.now();
                String machine = MachineLoad.now().since(machineStart);
                if (jfr != null) {
                    Path file = drain.jfrDir().resolve("drain-" + runs + ".jfr");
                    jfr.dump(file);
                    jfr.close();
                    out.println("   JFR of the drain (job submit to last commit): " + file);
                }
                Run run = new Run(cpuEnd.allNanosSince(cpuStart) / 1e9, startupCpu, wall, backlog.samples(),
                        cpuEnd.perSampleSince(cpuStart, backlog.samples()), machine);
                out.printf("   drained %,d samples in %.1f s = %,.0f samples/s; CPU %.1f s (job start-up %.1f s):"
                                + " %.2f CPU-µs per sample all in, %.2f after start-up%n", run.samples(), wall,
                        run.samplesPerSecond(), run.cpuSeconds(), startupCpu, run.microsPerSample(),
                        run.microsPerSampleAfterStartup());
                out.println("   " + run.split());
                out.println("   machine: " + machine);
                verify(config, backlog, out);
                return run;
            } finally {
                job.cancel().get(1, TimeUnit.MINUTES);
            }
        }
    }

    /** JFR's profile settings (execution and allocation samples) and every compilation, over this JVM, from now on. */
    private static Recording startRecording() throws java.io.IOException, java.text.ParseException {
        Recording r = new Recording(Configuration.getConfiguration("profile"));
        r.enable("jdk.Compilation").withThreshold(java.time.Duration.ZERO); // every compilation, to see what the JIT does
        r.start();
        return r;
    }

    /** Neo4j's fine windows of the backlog's instances hold every sample (each sample is one leaf's self count). */
    private static void verify(SamplesJobConfig config, Backlog backlog, PrintStream out) {
        long stored = 0;
        try (Driver driver = config.graph().openDriver()) {
            WindowReader reader = new WindowReader(driver, config.graph().database());
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < backlog.instances(); i++) {
                keys.add(key(FleetBatches.instance(backlog.prefix(), i, backlog.fromMillis())));
                if (keys.size() == 100 || i == backlog.instances() - 1) {
                    for (WindowCounts w : reader.windows(keys, backlog.fromMillis(), backlog.toMillis())) {
                        for (long self : w.counts().self()) {
                            stored += self;
                        }
                    }
                    keys.clear();
                }
            }
        }
        if (stored != backlog.samples()) {
            throw new IllegalStateException("Neo4j's windows hold " + stored + " samples, the backlog " + backlog.samples());
        }
        out.printf("   checked: Neo4j's windows hold all %,d samples%n", stored);
    }

    private void summarize(List<List<Run>> byConfig, Backlog backlog, boolean warm, PrintStream out) {
        out.printf("%n== drain: %,d samples (%d instances x %d batches), %s; medians of %d runs"
                        + " (2-core machine, shared)%n", backlog.samples(), backlog.instances(), backlog.batches(),
                warm ? "after a warm-up drain" : "first run JIT-cold", drain.rounds());
        out.println("configuration | CPU-µs per sample all in | after job start-up | samples/s drained | wall s | runs (µs all in)");
        for (int c = 0; c < byConfig.size(); c++) {
            List<Run> runs = byConfig.get(c);
            out.printf("%d %s | %.2f | %.2f | %,.0f | %.1f | %s%n", c + 1, drain.configs().get(c),
                    median(runs.stream().mapToDouble(Run::microsPerSample).toArray()),
                    median(runs.stream().mapToDouble(Run::microsPerSampleAfterStartup).toArray()),
                    median(runs.stream().mapToDouble(Run::samplesPerSecond).toArray()),
                    median(runs.stream().mapToDouble(Run::wallSeconds).toArray()),
                    runs.stream().map(r -> String.format("%.2f", r.microsPerSample())).toList());
        }
    }

    static double median(double[] values) {
        double[] v = values.clone();
        java.util.Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static String key(InstanceInfo i) {
        return new ExecutionId(i.getService(), i.getVersion(), i.getInstanceId()).key();
    }
}
