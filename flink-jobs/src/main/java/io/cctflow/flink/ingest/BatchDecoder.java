package io.cctflow.flink.ingest;

import io.cctflow.core.ClassNames;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.MethodNames;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.SampleBatchHistory;
import io.cctflow.schema.Stack;
import java.nio.ByteBuffer;

/**
 * Decodes and validates a {@link SampleBatch}; every rejection says what was wrong. Class and
 * method names of the dictionary are normalised ({@link ClassNames#normalise},
 * {@link MethodNames#normalise}) so that batches of any producer (an older agent, a third-party
 * converter) get the same method ids as our agent's, which normalises them already (a no-op then).
 */
public final class BatchDecoder {
    private BatchDecoder() {
    }

    /** Thrown for a record that can never be used, whatever is retried: a poison record. */
    public static final class InvalidRecordException extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidRecordException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    public static SampleBatch decode(RawRecord record) throws InvalidRecordException {
        if (record.value == null) {
            throw new InvalidRecordException("empty value (tombstone) on the samples topic", null);
        }
        SampleBatch batch;
        try {
            batch = SampleBatchHistory.decoder().decode(ByteBuffer.wrap(record.value));
        } catch (Exception | StackOverflowError e) {
            // Avro throws a variety of unchecked exceptions on garbage (bad header, unknown
            // fingerprint, negative lengths, EOF); all mean the same thing here
            throw new InvalidRecordException("not an Avro single-object SampleBatch: " + e, e);
        }
        validate(batch);
        normaliseNames(batch);
        return batch;
    }

    /** Normalises run-time generated names in place; dictionary entries may then share an id. */
    static void normaliseNames(SampleBatch batch) {
        for (MethodRef m : batch.getMethods()) {
            m.setClassName(ClassNames.normalise(m.getClassName()));
            m.setMethodName(MethodNames.normalise(m.getMethodName()));
        }
    }

    private static void validate(SampleBatch batch) throws InvalidRecordException {
        var instance = batch.getInstance();
        if (instance.getService().isBlank() || instance.getVersion().isBlank() || instance.getInstanceId().isBlank()) {
            throw new InvalidRecordException("service, version and instanceId must not be blank: "
                    + new ExecutionId(instance.getService(), instance.getVersion(), instance.getInstanceId()), null);
        }
        if (batch.getWindowEndMillis() < batch.getWindowStartMillis()) {
            throw new InvalidRecordException("windowEndMillis " + batch.getWindowEndMillis()
                    + " is before windowStartMillis " + batch.getWindowStartMillis(), null);
        }
        int methods = batch.getMethods().size();
        for (int s = 0; s < batch.getStacks().size(); s++) {
            Stack stack = batch.getStacks().get(s);
            if (stack.getFrames().size() != stack.getLines().size()) {
                throw new InvalidRecordException("stack " + s + " has " + stack.getFrames().size() + " frames but "
                        + stack.getLines().size() + " lines", null);
            }
            if (stack.getCount() <= 0) {
                throw new InvalidRecordException("stack " + s + " has count " + stack.getCount() + " (must be > 0)", null);
            }
            for (int f : stack.getFrames()) {
                if (f < 0 || f >= methods) {
                    throw new InvalidRecordException("stack " + s + " refers to method " + f + " but the dictionary has "
                            + methods + " entries", null);
                }
            }
        }
    }
}
