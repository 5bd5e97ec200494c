package io.cctflow.flink.ingest;

import io.cctflow.core.ExecutionId;
import io.cctflow.model.MethodRecord;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.SampleBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.util.Utf8;

/**
 * Decodes sample batch records (Avro single-object encoding) straight into a {@link DecodedBatch}:
 * a reader of Avro's binary encoding over the record's bytes ({@link AvroCursor}, read as Avro's
 * {@code BinaryDecoder} reads it) that follows {@code SampleBatch.avsc} field by field, so stack
 * frames and lines go into {@code int} arrays instead of Avro's lists of boxed {@code Integer}s,
 * and dictionary entries are looked up by their bytes in place in a {@link MethodDictionary}
 * instead of being copied, decoded into strings, normalised and hashed in every batch.
 * Arrays grow as items are read, never by a count the record claims, so a corrupt count ends in
 * an error, not in a huge allocation.
 *
 * <p>Accepts and rejects what {@link BatchDecoder#decode} does, with the same validation messages
 * (property-tested against it on random and corrupted batches). A record written with another
 * schema than this build's (its fingerprint differs) is handed to {@link BatchDecoder#decode},
 * which resolves what Avro can.
 *
 * <p>Not thread-safe: one per operator instance; the returned batch is valid until the next call.
 */
public final class SampleBatchReader {
    /** Avro single-object encoding: marker C3 01, then the writer schema's fingerprint (little-endian). */
    private static final int HEADER_BYTES = 10;
    private static final long FINGERPRINT = SchemaNormalization.parsingFingerprint64(SampleBatch.getClassSchema());
    /** Distinct thread names remembered before the cache is emptied. */
    private static final int MAX_THREAD_NAMES = 10_000;

    private final MethodDictionary dictionary;
    private final Map<Utf8, String> threadNames = new HashMap<>();
    private final Utf8 thread = new Utf8();
    private final AvroCursor decoder = new AvroCursor();
    /** Bytes of the record being read: no string in it can be longer. */
    private int recordLength;
    /** Offset and length of a dictionary entry's three strings in the record. */
    private final int[] entryStrings = new int[6];
    private final DecodedBatch batch = new DecodedBatch();
    private MethodRecord[] methods = new MethodRecord[64];
    private int[] frames = new int[1024];
    private int[] lines = new int[1024];
    /** First stack whose frames and lines differ in number: {stack, frames, lines}; stack -1 if none. */
    private final int[] mismatch = {-1, 0, 0};

    public SampleBatchReader(MethodDictionary dictionary) {
        this.dictionary = dictionary;
    }

    /**
     * The record's batch, validated, names normalised.
     *
     * @throws BatchDecoder.InvalidRecordException saying what is wrong with the record
     */
    public DecodedBatch read(RawRecord record) throws BatchDecoder.InvalidRecordException {
        byte[] value = record.value;
        if (value == null || !hasThisSchema(value)) {
            return DecodedBatch.of(BatchDecoder.decode(record), dictionary);
        }
        try {
            decoder.reset(value, HEADER_BYTES, value.length);
            recordLength = value.length;
            readBatch();
        } catch (Exception | StackOverflowError e) {
            // as in BatchDecoder: whatever Avro's decoder throws on garbage means the same here
            throw new BatchDecoder.InvalidRecordException("not an Avro single-object SampleBatch: " + e, e);
        }
        validate();
        return batch;
    }

    private static boolean hasThisSchema(byte[] value) {
        return value.length >= HEADER_BYTES && value[0] == (byte) 0xC3 && value[1] == (byte) 0x01
                && ByteBuffer.wrap(value, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong() == FINGERPRINT;
    }

    private void readBatch() throws IOException {
        batch.instance = readInstance();
        batch.windowStartMillis = decoder.readLong();
        batch.windowEndMillis = decoder.readLong();
        batch.sequence = decoder.readLong();
        batch.samplingPeriodMillis = decoder.readInt();
        readMethods();
        readStacks();
        skipStats();
        readRawThreadNames();
    }

    /** Each pool's raw thread names, every pool's into one list (a raw name says its pool). */
    private void readRawThreadNames() throws IOException {
        List<String> raw = new ArrayList<>();
        long pools = 0;
        for (long n = decoder.readCount(pools); n > 0; n = decoder.readCount(pools)) {
            for (long i = 0; i < n; i++, pools++) {
                decoder.skipString(recordLength); // the pool: the normalised raw name, so not kept
                long names = 0;
                for (long m = decoder.readCount(names); m > 0; m = decoder.readCount(names)) {
                    for (long j = 0; j < m; j++, names++) {
                        raw.add(readString());
                    }
                }
            }
        }
        batch.rawThreadNames = raw;
    }

    private InstanceInfo readInstance() throws IOException {
        String service = readString();
        String version = readString();
        String instanceId = readString();
        String host = readString();
        long pid = decoder.readLong();
        long startTimeMillis = decoder.readLong();
        Map<String, String> labels = new HashMap<>();
        long entries = 0;
        for (long n = decoder.readCount(entries); n > 0; n = decoder.readCount(entries)) {
            for (long i = 0; i < n; i++, entries++) {
                String key = readString();
                labels.put(key, readString());
            }
        }
        return new InstanceInfo(service, version, instanceId, host, pid, startTimeMillis, labels);
    }

    private void readMethods() throws IOException {
        int count = 0;
        for (long n = decoder.readCount(count); n > 0; n = decoder.readCount(count)) {
            for (long i = 0; i < n; i++) {
                int from = decoder.position();
                for (int k = 0; k < 3; k++) { // class, method, descriptor: compared in place
                    entryStrings[2 * k + 1] = decoder.skipString(recordLength);
                    entryStrings[2 * k] = decoder.position() - entryStrings[2 * k + 1];
                }
                if (count == methods.length) {
                    methods = Arrays.copyOf(methods, count * 2);
                }
                methods[count++] = dictionary.record(decoder.bytes(), from, decoder.position(), entryStrings);
            }
        }
        batch.methods = Arrays.copyOf(methods, count);
    }

    private void readStacks() throws IOException {
        mismatch[0] = -1;
        int stacks = 0;
        int at = 0;
        for (long n = decoder.readCount(stacks); n > 0; n = decoder.readCount(stacks)) {
            for (long i = 0; i < n; i++) {
                if (stacks == batch.threads.length) {
                    batch.allocateStacks(Math.max(16, stacks * 2));
                }
                batch.stackStarts[stacks] = at;
                int frameCount = readInts(at, true);
                int lineCount = readInts(at, false);
                // kept apart so validation can name the stack; frames and lines differ in length only then
                at += Math.max(frameCount, lineCount);
                if (frameCount != lineCount && mismatch[0] < 0) {
                    mismatch[0] = stacks;
                    mismatch[1] = frameCount;
                    mismatch[2] = lineCount;
                }
                readString(thread);
                batch.threads[stacks] = threadName();
                batch.truncated[stacks] = decoder.readBoolean();
                batch.counts[stacks] = decoder.readLong();
                stacks++;
            }
        }
        batch.stacks = stacks;
        batch.stackStarts[stacks] = at;
        batch.frames = frames;
        batch.lines = lines;
    }

    /** Reads an int array into frames (or lines) from {@code at}; returns its length. */
    private int readInts(int at, boolean intoFrames) throws IOException {
        int count = 0;
        int[] into = intoFrames ? frames : lines;
        for (long n = decoder.readCount(count); n > 0; n = decoder.readCount(count)) {
            // room for what the record can still hold, never for what a corrupt count claims
            int room = (int) Math.min(n, decoder.remaining());
            if (at + count + room > into.length) {
                into = Arrays.copyOf(into, Math.max(into.length * 2, at + count + room));
                if (intoFrames) {
                    frames = into;
                } else {
                    lines = into;
                }
            }
            decoder.readInts(into, at + count, n);
            count += (int) n; // read, so n <= room
        }
        return count;
    }

    /**
     * A string into {@code into}. Avro's {@code readString} allocates whatever length the record
     * claims (up to 2 GiB): a corrupt length must end in an error, not in an out-of-memory error,
     * so a length longer than the whole record is refused before anything is allocated.
     */
    private Utf8 readString(Utf8 into) throws IOException {
        int length = decoder.skipString(recordLength);
        into.setByteLength(length);
        System.arraycopy(decoder.bytes(), decoder.position() - length, into.getBytes(), 0, length);
        return into;
    }

    private String readString() throws IOException {
        int length = decoder.skipString(recordLength);
        return new String(decoder.bytes(), decoder.position() - length, length, StandardCharsets.UTF_8);
    }

    private String threadName() {
        String name = threadNames.get(thread);
        if (name == null) {
            if (threadNames.size() >= MAX_THREAD_NAMES) {
                threadNames.clear();
            }
            name = thread.toString();
            threadNames.put(new Utf8(thread), name);
        }
        return name;
    }

    /** The agent's counters: not used by the job, but read so a corrupt record is rejected as Avro would. */
    private void skipStats() throws IOException {
        int branch = decoder.readInt();
        if (branch == 1) {
            for (int i = 0; i < 11; i++) {
                decoder.readLong();
            }
            decoder.readInt();
            decoder.skipString(recordLength); // its length checked as every string's
        } else if (branch != 0) {
            throw new IOException("union index " + branch + " of field stats out of range [0, 1]");
        }
    }

    /** The checks of {@link BatchDecoder}, in its order, with its messages. */
    private void validate() throws BatchDecoder.InvalidRecordException {
        InstanceInfo instance = batch.instance;
        if (instance.getService().isBlank() || instance.getVersion().isBlank() || instance.getInstanceId().isBlank()) {
            throw new BatchDecoder.InvalidRecordException("service, version and instanceId must not be blank: "
                    + new ExecutionId(instance.getService(), instance.getVersion(), instance.getInstanceId()), null);
        }
        if (batch.windowEndMillis < batch.windowStartMillis) {
            throw new BatchDecoder.InvalidRecordException("windowEndMillis " + batch.windowEndMillis
                    + " is before windowStartMillis " + batch.windowStartMillis, null);
        }
        int methodCount = batch.methods.length;
        for (int s = 0; s < batch.stacks; s++) {
            if (s == mismatch[0]) {
                throw new BatchDecoder.InvalidRecordException("stack " + s + " has " + mismatch[1] + " frames but "
                        + mismatch[2] + " lines", null);
            }
            if (batch.counts[s] <= 0) {
                throw new BatchDecoder.InvalidRecordException("stack " + s + " has count " + batch.counts[s]
                        + " (must be > 0)", null);
            }
            for (int i = batch.stackStarts[s]; i < batch.stackStarts[s + 1]; i++) {
                int f = batch.frames[i];
                if (f < 0 || f >= methodCount) {
                    throw new BatchDecoder.InvalidRecordException("stack " + s + " refers to method " + f
                            + " but the dictionary has " + methodCount + " entries", null);
                }
            }
        }
    }
}
