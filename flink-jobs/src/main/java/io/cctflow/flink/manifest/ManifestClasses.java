package io.cctflow.flink.manifest;

import io.cctflow.flink.Outputs;
import io.cctflow.flink.ingest.BatchDecoder.InvalidRecordException;
import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.ingest.ManifestDecoder;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.model.CodeClassRecord;
import io.cctflow.schema.CodeManifest;
import io.cctflow.schema.MethodFingerprint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Decodes a code manifest and emits one {@link CodeClassRecord} per class it carries; a record that
 * cannot be decoded or is invalid goes to {@link Outputs#DEAD_LETTERS} with the reason and is
 * counted ({@code manifestsDeadLettered}). Stateless.
 */
public final class ManifestClasses extends ProcessFunction<RawRecord, CodeClassRecord> {
    private static final long serialVersionUID = 1L;

    private transient Counter deadLettered;

    @Override
    public void open(OpenContext context) {
        deadLettered = getRuntimeContext().getMetricGroup().counter("manifestsDeadLettered");
    }

    @Override
    public void processElement(RawRecord record, Context ctx, Collector<CodeClassRecord> out) {
        CodeManifest manifest;
        try {
            manifest = ManifestDecoder.decode(record);
        } catch (InvalidRecordException e) {
            deadLettered.inc();
            ctx.output(Outputs.DEAD_LETTERS, new DeadLetter(record, e.getMessage() + " at " + record.origin()));
            return;
        }
        for (CodeClassRecord c : classes(manifest)) {
            out.collect(c);
        }
    }

    /** The manifest's methods grouped by class, classes in order of first appearance. */
    static List<CodeClassRecord> classes(CodeManifest manifest) {
        Map<String, List<MethodFingerprint>> byClass = new LinkedHashMap<>();
        for (MethodFingerprint m : manifest.getMethods()) {
            byClass.computeIfAbsent(m.getClassName(), c -> new ArrayList<>()).add(m);
        }
        List<CodeClassRecord> classes = new ArrayList<>(byClass.size());
        for (Map.Entry<String, List<MethodFingerprint>> e : byClass.entrySet()) {
            List<MethodFingerprint> methods = e.getValue();
            String[] names = new String[methods.size()];
            String[] descriptors = new String[methods.size()];
            long[] fingerprints = new long[methods.size()];
            for (int i = 0; i < names.length; i++) {
                names[i] = methods.get(i).getMethodName();
                descriptors[i] = methods.get(i).getDescriptor();
                fingerprints[i] = methods.get(i).getFingerprint();
            }
            classes.add(new CodeClassRecord(manifest.getService(), manifest.getVersion(), e.getKey(), names,
                    descriptors, fingerprints));
        }
        return classes;
    }
}
