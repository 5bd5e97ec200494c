package io.cctflow.schema;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.message.BinaryMessageDecoder;

/**
 * The {@code SampleBatch} writer schemas of older agents, and a decoder that knows them. Single-object
 * encoding names the writer's schema by fingerprint only, so a reader must have been told a schema
 * to resolve a batch written with it ({@link SampleBatch#getDecoder()} knows only this build's).
 * Top-level fields added later ({@link #ADDED_FIELDS}) all have defaults, so an older writer's
 * schema is this build's without the fields added after it.
 */
public final class SampleBatchHistory {
    /** Top-level fields added to {@code SampleBatch} since agents were released, oldest first. */
    public static final List<String> ADDED_FIELDS = List.of("rawThreadNames");

    private static final BinaryMessageDecoder<SampleBatch> DECODER = createDecoder();

    private SampleBatchHistory() {
    }

    /**
     * The older writer schemas, newest first: this build's without the last added field, without
     * the last two, and so on.
     */
    public static List<Schema> olderSchemas() {
        Schema current = SampleBatch.getClassSchema();
        List<Schema> older = new ArrayList<>();
        for (int keep = ADDED_FIELDS.size() - 1; keep >= 0; keep--) {
            List<String> dropped = ADDED_FIELDS.subList(keep, ADDED_FIELDS.size());
            List<Schema.Field> fields = new ArrayList<>();
            for (Schema.Field f : current.getFields()) {
                if (!dropped.contains(f.name())) {
                    fields.add(new Schema.Field(f, f.schema()));
                }
            }
            older.add(Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false, fields));
        }
        return older;
    }

    /**
     * A decoder of batches written with this build's schema or an older one ({@link #olderSchemas});
     * fields an older writer did not know take their defaults. Shared and thread-safe, as {@link
     * SampleBatch#getDecoder()} is.
     */
    public static BinaryMessageDecoder<SampleBatch> decoder() {
        return DECODER;
    }

    private static BinaryMessageDecoder<SampleBatch> createDecoder() {
        BinaryMessageDecoder<SampleBatch> decoder = SampleBatch.createDecoder(null);
        for (Schema older : olderSchemas()) {
            decoder.addSchema(older);
        }
        return decoder;
    }
}
