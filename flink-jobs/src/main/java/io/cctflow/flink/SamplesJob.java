package io.cctflow.flink;

import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.flink.cct.CctMergeFunction;
import io.cctflow.flink.cct.TopologyUpdate;
import io.cctflow.flink.sink.TopologyWrite;
import io.cctflow.flink.sink.WindowWrite;
import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.flink.ingest.RawRecordDeserializer;
import io.cctflow.flink.manifest.ManifestPipeline;
import io.cctflow.flink.sink.DeadLetterSink;
import io.cctflow.flink.sink.Neo4jSink;
import io.cctflow.flink.task.TaskDefinitionChange;
import io.cctflow.flink.window.ToContribution;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.graph.write.WindowContribution;
import io.cctflow.model.CodeClassRecord;
import io.cctflow.model.NodeTasks;
import io.cctflow.schema.RecordSizes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.neo4j.driver.Driver;

/**
 * The samples job: SampleBatches from Kafka, merged per execution into CCTs, counted per
 * event-time window, written to Neo4j.
 *
 * <pre>
 * kafka source ─▶ keyBy(execution) ─▶ merge into CCT ─┬─▶ topology ─▶ Neo4j
 * task definitions ─▶ broadcast ───────────▲         ├─▶ task labels, task definitions ─▶ Neo4j
 *                                                    ├─▶ dead letters ──────────────────────┬─▶ Kafka DLQ
 *                                                    └─▶ counts ─▶ window contributions ─▶ Neo4j
 *                                                          (each batch added once to its window, any age)
 * </pre>
 *
 * Sources and sinks are injected into {@link #build} so tests can swap them; {@link #start} wires
 * the production ones.
 */
public final class SamplesJob {
    public static final String NAME = "cctflow-samples";
    /**
     * Version of the job's state and operator layout; raised whenever a savepoint of the previous
     * version can no longer be restored (2: window sums with per-thread, per-method and truncation
     * counts; pending truncated stacks; 3: the merge operator has the task definitions as its
     * broadcast input, broadcast state of definitions, keyed state of method names; 4: nodes and
     * method names in keyed state as bytes; 5: nodes in keyed state as chunks, a list of byte arrays;
     * 6: count columns in window sums and batches serialized by {@code CountColumnsSerializer},
     * method names in keyed state as chunks, a list of byte arrays; 7: the broadcast state of task
     * definitions holds the job's own {@code TaskDefinitionState}, serialized by
     * {@code TaskDefinitionStateSerializer}, no longer graph-store's record as a POJO: a version 6
     * savepoint is refused on restore, its serializer incompatible; 8: no window operator, batches
     * go to the graph as contributions named by batch, which the graph adds once; keyed state of
     * the batches seen, for duplicates; pending truncated stacks carry their contribution id; since
     * 2026-11-30 nodes in keyed state as {@code StoredNodes} chunks and method names in operator
     * state, a version 8 savepoint of before still restored: its state is read and rewritten).
     */
    public static final int STATE_VERSION = 8;
    /** The samples consumer's fetches: answered once this many bytes are there, or after {@link #FETCH_MAX_WAIT}. */
    static final int FETCH_MIN_BYTES = 256 * 1024;
    /** At most this much is added to a batch's way to the graph (an agent flushes every 10 s). */
    static final Duration FETCH_MAX_WAIT = Duration.ofMillis(100);

    private SamplesJob() {
    }

    /** The sinks of the job; tests pass their own. */
    public record Sinks(Sink<TopologyUpdate> topology, Sink<WindowContribution> windows, Sink<DeadLetter> deadLetters,
            Sink<NodeTasks> nodeTasks, Sink<TaskDefinitionChange> taskDefinitions) {
    }

    /**
     * Adds the job's operators to {@code env}.
     *
     * @param taskSource records of the task definitions topic, undecoded; read by one subtask, so
     *     every merge subtask sees the definitions in the same order
     */
    public static void build(StreamExecutionEnvironment env, SamplesJobConfig config, Source<RawRecord, ?, ?> source,
            Source<RawRecord, ?, ?> taskSource, Sinks sinks) {
        BroadcastStream<RawRecord> taskDefinitions = env
                .fromSource(taskSource, WatermarkStrategy.noWatermarks(), "task-definitions-source")
                .uid("task-definitions-source")
                .setParallelism(1)
                .broadcast(Outputs.TASK_DEFINITIONS);
        SingleOutputStreamOperator<BatchCounts> merged = env
                .fromSource(source, WatermarkStrategy.noWatermarks(), "samples-source")
                .uid("samples-source")
                .keyBy(SamplesJob::recordKey, Types.STRING)
                .connect(taskDefinitions)
                .process(new CctMergeFunction(config.matchThreshold(), config.maxPendingStacks(), config.maxPendingAge(),
                        config.treeCacheSize()))
                .name("merge-into-cct")
                .uid("merge-into-cct");

        merged.getSideOutput(Outputs.TOPOLOGY).sinkTo(sinks.topology()).name("topology-to-neo4j").uid("topology-sink");
        merged.getSideOutput(Outputs.NODE_TASKS).sinkTo(sinks.nodeTasks())
                .name("task-labels-to-neo4j").uid("task-labels-sink");
        merged.getSideOutput(Outputs.TASK_DEFINITION_CHANGES).sinkTo(sinks.taskDefinitions())
                .name("task-definitions-to-neo4j").uid("task-definitions-sink");

        // one subtask writes each execution's windows (forward from the keyed merge), as
        // GraphWriter.addContributions requires
        merged.map(new ToContribution(config.window()))
                .name("window-contributions")
                .uid("window-contributions")
                .sinkTo(sinks.windows())
                .name("window-counts-to-neo4j")
                .uid("window-counts-sink");

        merged.getSideOutput(Outputs.DEAD_LETTERS)
                .sinkTo(sinks.deadLetters())
                .name("dead-letters")
                .uid("dead-letter-sink");
    }

    /** Kafka's record key is the execution key the agent wrote; a missing key groups under "". */
    static String recordKey(RawRecord record) {
        return record.key == null ? "" : new String(record.key, StandardCharsets.UTF_8);
    }

    /** The Kafka source of the samples topic, resuming from committed offsets (earliest at first start). */
    public static KafkaSource<RawRecord> kafkaSource(SamplesJobConfig config) {
        return kafkaSource(config, KafkaSource.<RawRecord>builder().setTopics(config.samplesTopic()));
    }

    /**
     * The Kafka source of the manifests topic, like {@link #kafkaSource(SamplesJobConfig)}, but
     * subscribed by pattern: agents may run without code fingerprints, so the topic may not exist
     * yet (it is picked up by partition discovery once it does).
     */
    public static KafkaSource<RawRecord> manifestsSource(SamplesJobConfig config) {
        return kafkaSource(config, KafkaSource.<RawRecord>builder()
                .setTopicPattern(Pattern.compile(Pattern.quote(config.manifestsTopic()))));
    }

    @SuppressWarnings("deprecation") // the connector's API still takes Kafka's OffsetResetStrategy
    private static KafkaSource<RawRecord> kafkaSource(SamplesJobConfig config, KafkaSourceBuilder<RawRecord> builder) {
        builder.setBootstrapServers(config.bootstrapServers())
                .setGroupId(config.groupId())
                .setDeserializer(new RawRecordDeserializer())
                .setStartingOffsets(OffsetsInitializer.committedOffsets(
                        org.apache.kafka.clients.consumer.OffsetResetStrategy.EARLIEST))
                // a record over the default 1 MiB would still come, but alone in its fetch
                .setProperty(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG,
                        Integer.toString(RecordSizes.TOPIC_MAX_MESSAGE_BYTES))
                // a busy fleet's batches in fewer, larger fetches: the broker answers a fetch once
                // FETCH_MIN_BYTES arrived or FETCH_MAX_WAIT passed, not as soon as one batch did
                .setProperty(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, Integer.toString(FETCH_MIN_BYTES))
                .setProperty(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, Long.toString(FETCH_MAX_WAIT.toMillis()));
        if (config.bounded()) {
            builder.setBounded(OffsetsInitializer.latest());
        }
        return builder.build();
    }

    /**
     * The Kafka source of the task definitions topic: always from the earliest offset (a compacted
     * topic holds every live definition) unless restored from a checkpoint, which has them in state.
     */
    public static KafkaSource<RawRecord> taskSource(SamplesJobConfig config) {
        KafkaSourceBuilder<RawRecord> builder = KafkaSource.<RawRecord>builder()
                .setBootstrapServers(config.bootstrapServers())
                .setTopics(config.tasksTopic())
                .setGroupId(config.groupId())
                .setDeserializer(new RawRecordDeserializer())
                .setStartingOffsets(OffsetsInitializer.earliest());
        if (config.bounded()) {
            builder.setBounded(OffsetsInitializer.latest());
        }
        return builder.build();
    }

    /** The production sinks: Neo4j for the graph, Kafka for dead letters. */
    public static Sinks productionSinks(SamplesJobConfig config) {
        Duration delay = Duration.ofMillis(500);
        return new Sinks(
                new Neo4jSink<>(config.graph(), new TopologyWrite(config.topologyRecentIds()), 200, delay, config.neo4jRetry()),
                new Neo4jSink<>(config.graph(), new WindowWrite(config.windowsRecentMib() * (1L << 20)), 200, delay,
                        config.neo4jRetry()),
                deadLetterSink(config),
                // a new definition may relabel millions of nodes: large buffers, few transactions
                new Neo4jSink<>(config.graph(), GraphWriter::writeNodeTasks, 20_000, delay, config.neo4jRetry()),
                new Neo4jSink<>(config.graph(), TaskDefinitionChange::write, 200, delay, config.neo4jRetry()));
    }

    /** The dead-letter topic as a sink; every pipeline of the job dead-letters there. */
    public static Sink<DeadLetter> deadLetterSink(SamplesJobConfig config) {
        return new DeadLetterSink(config.bootstrapServers(), config.deadLetterTopic());
    }

    /** The code fingerprints' sink: one write per buffer of classes ({@link GraphWriter#writeCode}). */
    public static Sink<CodeClassRecord> codeSink(SamplesJobConfig config) {
        return new Neo4jSink<>(config.graph(), GraphWriter::writeCode, 200, Duration.ofMillis(500),
                config.neo4jRetry());
    }

    /**
     * Configures checkpointing, state backend, parallelism and object reuse as the configuration says. RocksDB
     * takes incremental checkpoints; the checkpoint directory is set only when configured, otherwise
     * the environment's (the cluster's, or the local environment's) applies.
     */
    public static void configure(StreamExecutionEnvironment env, SamplesJobConfig config) {
        Configuration c = new Configuration();
        c.set(StateBackendOptions.STATE_BACKEND, config.stateBackend());
        if (config.stateBackend().equals("rocksdb")) {
            c.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        }
        if (!config.checkpointDir().isEmpty()) {
            c.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
            c.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, config.checkpointDir());
        }
        env.configure(c);
        // no operator of the job modifies a record after emitting it or one it received, so chained
        // operators may share records instead of copying them (copies were ~5 % of the merge
        // operator's CPU, mostly each batch's topology update on its way to the topology sink)
        env.getConfig().enableObjectReuse();
        env.enableCheckpointing(config.checkpointInterval().toMillis());
        env.setParallelism(config.parallelism());
    }

    /**
     * Creates the graph schema, the task definitions topic and the dead-letter topic (if missing), then submits the job
     * with production sources and sinks: the samples path with task definitions ({@link #build})
     * and the code manifests ({@link ManifestPipeline}) as {@link #readsManifests} says.
     */
    public static JobClient start(StreamExecutionEnvironment env, SamplesJobConfig config) throws Exception {
        try (Driver driver = config.graph().openDriver()) {
            GraphSchema.ensure(driver, config.graph().database());
        }
        JobTopics.ensureTasks(config.bootstrapServers(), config.tasksTopic());
        JobTopics.ensureDeadLetters(config.bootstrapServers(), config.deadLetterTopic());
        configure(env, config);
        build(env, config, kafkaSource(config), taskSource(config), productionSinks(config));
        if (readsManifests(config)) {
            ManifestPipeline.build(env, manifestsSource(config), codeSink(config), deadLetterSink(config));
        }
        return env.executeAsync(NAME);
    }

    /**
     * Whether the job reads code manifests: unless {@code topic.manifests} is empty, and in a
     * bounded run only if the topic exists at start, because the connector's pattern subscription
     * never ends a bounded read of a topic that does not exist.
     */
    static boolean readsManifests(SamplesJobConfig config) throws Exception {
        if (config.manifestsTopic().isEmpty()) {
            return false;
        }
        if (!config.bounded()) {
            return true;
        }
        try (Admin admin = Admin.create(Map.<String, Object>of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers()))) {
            return admin.listTopics().names().get(1, TimeUnit.MINUTES).contains(config.manifestsTopic());
        }
    }

    /**
     * Entry point on a Flink cluster ({@code flink run}, the REST API's jar run, the Kubernetes
     * operator): {@code --key value} pairs of {@link SamplesJobConfig#KEYS}, over the
     * {@code CCTFLOW_*} environment and {@code --config FILE}; a bad key fails here, naming it.
     * Submitted detached (the REST API, {@code flink run -d}) it returns once the job is
     * submitted; attached, it waits for the job's end.
     */
    public static void main(String[] args) throws Exception {
        SamplesJobConfig config = SamplesJobConfig.fromCommandLine(args, System::getenv);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        JobClient job = start(env, config);
        if (env.getConfiguration().get(DeploymentOptions.ATTACHED)) {
            job.getJobExecutionResult().get();
        }
    }
}
