package io.cctflow.flink;

import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.flink.cct.CctMergeFunction;
import io.cctflow.flink.cct.TopologyUpdate;
import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.ingest.DeadLetterSerializer;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.flink.ingest.RawRecordDeserializer;
import io.cctflow.flink.sink.Neo4jSink;
import io.cctflow.flink.task.TaskDefinitionChange;
import io.cctflow.flink.task.TaskTopic;
import io.cctflow.flink.window.EarlyFiringTrigger;
import io.cctflow.flink.window.LateBatches;
import io.cctflow.flink.window.SumCounts;
import io.cctflow.flink.window.ToWindowCounts;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.GraphWriter;
import io.cctflow.graph.model.InstanceRecord;
import io.cctflow.graph.model.MethodRecord;
import io.cctflow.graph.model.NodeRecord;
import io.cctflow.graph.model.NodeTasks;
import io.cctflow.graph.model.WindowCounts;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.neo4j.driver.Driver;

/**
 * The samples job: SampleBatches from Kafka, merged per execution into CCTs, counted per
 * event-time window, written to Neo4j.
 *
 * <pre>
 * kafka source ─▶ keyBy(execution) ─▶ merge into CCT ─┬─▶ topology ─▶ Neo4j
 * task definitions ─▶ broadcast ───────────▲         ├─▶ task labels, task definitions ─▶ Neo4j
 *                                                    ├─▶ dead letters ──────────────────────┬─▶ Kafka DLQ
 *                                                    └─▶ counts ─▶ watermarks ─▶ keyBy      │
 *                                                          ─▶ window sum ─┬─▶ Neo4j          │
 *                                                                         └─▶ late batches ─┘
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
     * broadcast input, broadcast state of definitions, keyed state of method names).
     */
    public static final int STATE_VERSION = 3;

    private SamplesJob() {
    }

    /** The sinks of the job; tests pass their own. */
    public record Sinks(Sink<TopologyUpdate> topology, Sink<WindowCounts> windows, Sink<DeadLetter> deadLetters,
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

        SingleOutputStreamOperator<WindowCounts> windows = merged.assignTimestampsAndWatermarks(WatermarkStrategy
                        .<BatchCounts>forBoundedOutOfOrderness(config.outOfOrderness())
                        .withTimestampAssigner((counts, previous) -> counts.eventTimeMillis)
                        .withIdleness(config.idleness()))
                .name("batch-event-time")
                .uid("batch-event-time")
                .keyBy(counts -> counts.executionKey, Types.STRING)
                .window(TumblingEventTimeWindows.of(config.window()))
                .trigger(new EarlyFiringTrigger(config.earlyFiring()))
                .allowedLateness(config.allowedLateness())
                .sideOutputLateData(Outputs.LATE_BATCHES)
                .aggregate(new SumCounts(), new ToWindowCounts())
                .name("window-counts")
                .uid("window-counts");
        windows.sinkTo(sinks.windows()).name("window-counts-to-neo4j").uid("window-counts-sink");

        windows.getSideOutput(Outputs.LATE_BATCHES)
                .process(new LateBatches(config.window(), config.allowedLateness()))
                .name("late-batches")
                .uid("late-batches")
                .union(merged.getSideOutput(Outputs.DEAD_LETTERS))
                .sinkTo(sinks.deadLetters())
                .name("dead-letters")
                .uid("dead-letter-sink");
    }

    /** Kafka's record key is the execution key the agent wrote; a missing key groups under "". */
    static String recordKey(RawRecord record) {
        return record.key == null ? "" : new String(record.key, StandardCharsets.UTF_8);
    }

    /** The Kafka source of the samples topic, resuming from committed offsets (earliest at first start). */
    @SuppressWarnings("deprecation") // the connector's API still takes Kafka's OffsetResetStrategy
    public static KafkaSource<RawRecord> kafkaSource(SamplesJobConfig config) {
        KafkaSourceBuilder<RawRecord> builder = KafkaSource.<RawRecord>builder()
                .setBootstrapServers(config.bootstrapServers())
                .setTopics(config.samplesTopic())
                .setGroupId(config.groupId())
                .setDeserializer(new RawRecordDeserializer())
                .setStartingOffsets(OffsetsInitializer.committedOffsets(
                        org.apache.kafka.clients.consumer.OffsetResetStrategy.EARLIEST));
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
                new Neo4jSink<>(config.graph(), SamplesJob::writeTopology, 200, delay, config.neo4jRetryBudget()),
                new Neo4jSink<>(config.graph(), GraphWriter::writeWindowCounts, 200, delay, config.neo4jRetryBudget()),
                KafkaSink.<DeadLetter>builder()
                        .setBootstrapServers(config.bootstrapServers())
                        .setRecordSerializer(new DeadLetterSerializer(config.deadLetterTopic()))
                        .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                        .build(),
                // a new definition may relabel millions of nodes: large buffers, few transactions
                new Neo4jSink<>(config.graph(), GraphWriter::writeNodeTasks, 20_000, delay, config.neo4jRetryBudget()),
                new Neo4jSink<>(config.graph(), TaskDefinitionChange::write, 200, delay, config.neo4jRetryBudget()));
    }

    /** Instances first, then methods, then nodes: each write can link to what the previous one wrote. */
    static void writeTopology(GraphWriter writer, List<TopologyUpdate> updates) {
        Map<String, InstanceRecord> instances = new LinkedHashMap<>();
        Map<Long, MethodRecord> methods = new LinkedHashMap<>();
        List<NodeRecord> nodes = new ArrayList<>();
        for (TopologyUpdate u : updates) {
            instances.merge(u.instance.executionId().key(), u.instance, SamplesJob::span);
            for (MethodRecord m : u.methods) {
                methods.putIfAbsent(m.id(), m);
            }
            nodes.addAll(Arrays.asList(u.nodes));
        }
        writer.writeInstances(List.copyOf(instances.values()));
        writer.writeMethods(List.copyOf(methods.values()));
        writer.writeNodes(nodes);
    }

    private static InstanceRecord span(InstanceRecord a, InstanceRecord b) {
        return new InstanceRecord(a.service(), a.version(), a.instanceId(), a.host(), a.pid(), a.startTimeMillis(),
                a.labels(), Math.min(a.firstSampleMillis(), b.firstSampleMillis()),
                Math.max(a.lastSampleMillis(), b.lastSampleMillis()));
    }

    /**
     * Configures checkpointing, state backend and parallelism as the configuration says. RocksDB
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
        env.enableCheckpointing(config.checkpointInterval().toMillis());
        env.setParallelism(config.parallelism());
    }

    /**
     * Creates the graph schema and the task definitions topic (if missing), then submits the job
     * with production sources and sinks.
     */
    public static JobClient start(StreamExecutionEnvironment env, SamplesJobConfig config) throws Exception {
        try (Driver driver = config.graph().openDriver()) {
            GraphSchema.ensure(driver, config.graph().database());
        }
        TaskTopic.ensure(config.bootstrapServers(), config.tasksTopic());
        configure(env, config);
        build(env, config, kafkaSource(config), taskSource(config), productionSinks(config));
        return env.executeAsync(NAME);
    }

    /** Entry point on a Flink cluster: {@code --key value} pairs as in {@link SamplesJobConfig#KEYS}. */
    public static void main(String[] args) throws Exception {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --key value, got '" + args[i] + "'");
            }
            values.put(args[i].substring(2), args[i + 1]);
        }
        SamplesJobConfig config = SamplesJobConfig.from(values);
        start(StreamExecutionEnvironment.getExecutionEnvironment(), config).getJobExecutionResult().get();
    }
}
