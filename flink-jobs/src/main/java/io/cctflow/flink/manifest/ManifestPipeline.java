package io.cctflow.flink.manifest;

import io.cctflow.flink.Outputs;
import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.model.CodeClassRecord;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The code-manifest part of the samples job, apart from the sample path (it shares no state with
 * it):
 *
 * <pre>
 * manifests source ─▶ decode, one record per class ─┬─▶ Neo4j (:Deployment)-[:HAS_CODE]->(:CodeClass)
 *                                                  └─▶ dead letters ─▶ Kafka DLQ
 * </pre>
 *
 * Writes are idempotent (MERGE per (deployment, class), SET of its arrays), so at-least-once
 * delivery and replays store the same graph; the manifests of several instances of one deployment
 * overwrite a class with the same values.
 */
public final class ManifestPipeline {
    private ManifestPipeline() {
    }

    /** Adds the pipeline's operators to {@code env}; sources and sinks injected so tests can swap them. */
    public static void build(StreamExecutionEnvironment env, Source<RawRecord, ?, ?> source,
            Sink<CodeClassRecord> code, Sink<DeadLetter> deadLetters) {
        SingleOutputStreamOperator<CodeClassRecord> classes = env
                .fromSource(source, WatermarkStrategy.noWatermarks(), "manifests-source")
                .uid("manifests-source")
                .process(new ManifestClasses())
                .name("decode-manifests")
                .uid("decode-manifests");
        classes.sinkTo(code).name("code-to-neo4j").uid("code-sink");
        classes.getSideOutput(Outputs.DEAD_LETTERS)
                .sinkTo(deadLetters)
                .name("manifest-dead-letters")
                .uid("manifest-dead-letter-sink");
    }
}
