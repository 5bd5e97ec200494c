package io.cctflow.flink.ingest;

import io.cctflow.flink.ingest.BatchDecoder.InvalidRecordException;
import io.cctflow.schema.CodeManifest;
import io.cctflow.schema.MethodFingerprint;
import java.nio.ByteBuffer;

/** Decodes and validates a {@link CodeManifest}; every rejection says what was wrong. Stateless. */
public final class ManifestDecoder {
    private ManifestDecoder() {
    }

    public static CodeManifest decode(RawRecord record) throws InvalidRecordException {
        if (record.value == null) {
            throw new InvalidRecordException("empty value (tombstone) on the manifests topic", null);
        }
        CodeManifest manifest;
        try {
            manifest = CodeManifest.fromByteBuffer(ByteBuffer.wrap(record.value));
        } catch (Exception | StackOverflowError e) {
            // as in BatchDecoder: Avro reports garbage with a variety of unchecked exceptions
            throw new InvalidRecordException("not an Avro single-object CodeManifest: " + e, e);
        }
        validate(manifest);
        return manifest;
    }

    private static void validate(CodeManifest manifest) throws InvalidRecordException {
        if (manifest.getService().isBlank() || manifest.getVersion().isBlank() || manifest.getInstanceId().isBlank()) {
            throw new InvalidRecordException("service, version and instanceId must not be blank: service '"
                    + manifest.getService() + "', version '" + manifest.getVersion() + "', instanceId '"
                    + manifest.getInstanceId() + "'", null);
        }
        for (int i = 0; i < manifest.getMethods().size(); i++) {
            MethodFingerprint m = manifest.getMethods().get(i);
            if (m.getClassName().isEmpty() || m.getMethodName().isEmpty() || !m.getDescriptor().startsWith("(")) {
                throw new InvalidRecordException("method " + i + " is not a method: class '" + m.getClassName()
                        + "', name '" + m.getMethodName() + "', descriptor '" + m.getDescriptor()
                        + "' (a descriptor starts with '(')", null);
            }
        }
    }
}
