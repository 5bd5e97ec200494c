package io.cctflow.flink.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.core.ClassNames;
import io.cctflow.core.MethodNames;
import io.cctflow.flink.TestBatches;
import io.cctflow.model.MethodRecord;
import io.cctflow.schema.AgentStats;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.PoolThreads;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link SampleBatchReader} against the reference, Avro's generated classes ({@link
 * BatchDecoder#decode}, flattened by {@link DecodedBatch#of}): on random batches, valid and
 * invalid (blank ids, windows backwards, counts not positive, frames out of the dictionary, frames
 * and lines of different lengths, names to normalise, non-ASCII names, with and without stats),
 * and on corrupted encodings of them (cut short, bytes overwritten, garbage after a valid header).
 * Both must accept the same records with the same content, or reject them; a rejection by
 * validation must give the same message.
 */
class SampleBatchReaderTest {
    private static final String[] CLASSES = {"com.acme.Shop", "java.util.HashMap", "Wörter.Ünïcode",
        "com.acme.Shop$$Lambda/0x0000000801234567", "jdk.internal.reflect.GeneratedMethodAccessor17", "a.B$1"};
    private static final String[] METHODS = {"run", "get", "lambda$main$0", "invokeStatic12", "<init>", "sçhön"};
    private static final String[] THREADS = {"main", "worker-#", "pool-1-thread-3", "", "Ƭhread"};

    @Property(tries = 300)
    void readsWhatAvroDecodes(@ForAll long seed) {
        Random random = new Random(seed);
        SampleBatch batch = randomBatch(random);
        byte[] bytes = TestBatches.encode(batch);
        assertSameOutcome(bytes, "seed " + seed);
    }

    @Property(tries = 300)
    void rejectsWhatAvroRejectsWhenCorrupted(@ForAll long seed, @ForAll @IntRange(min = 0, max = 2) int kind) {
        Random random = new Random(seed);
        byte[] bytes = TestBatches.encode(randomBatch(random));
        byte[] corrupt = switch (kind) {
            case 0 -> Arrays.copyOf(bytes, random.nextInt(bytes.length));
            case 1 -> {
                byte[] b = bytes.clone();
                for (int i = 1 + random.nextInt(4); i > 0; i--) {
                    b[10 + random.nextInt(b.length - 10)] = (byte) random.nextInt(256);
                }
                yield b;
            }
            default -> {
                byte[] b = Arrays.copyOf(bytes, 10 + random.nextInt(200));
                for (int i = 10; i < b.length; i++) {
                    b[i] = (byte) random.nextInt(256);
                }
                yield b;
            }
        };
        assertSameOutcome(corrupt, "seed " + seed + " kind " + kind);
    }

    /** One reader over many batches: its reused arrays and caches never leak one batch into the next. */
    @Test
    void oneReaderReadsManyBatchesAsAvroDoes() {
        Random random = new Random(7);
        SampleBatchReader reader = new SampleBatchReader(new MethodDictionary(5));
        for (int i = 0; i < 500; i++) {
            byte[] bytes = TestBatches.encode(randomBatch(random));
            Object expected = reference(bytes);
            Object actual = outcome(reader, bytes);
            assertThat(describe(actual)).as("batch %d", i).isEqualTo(describe(expected));
        }
    }

    @Test
    void rejectsTombstonesAndForeignHeadersLikeBatchDecoder() {
        SampleBatchReader reader = new SampleBatchReader(new MethodDictionary(10));
        assertThatThrownBy(() -> reader.read(new RawRecord("samples", 0, 1, null, null)))
                .hasMessageContaining("tombstone");
        assertThatThrownBy(() -> reader.read(new RawRecord("samples", 0, 2, null, new byte[] {1, 2, 3})))
                .hasMessageStartingWith("not an Avro single-object SampleBatch");
    }

    /** Cached records equal records computed afresh, whatever the bound (entries evicted and read again). */
    @Property(tries = 100)
    void dictionaryRecordsEqualFreshlyComputedOnes(@ForAll long seed, @ForAll @IntRange(min = 1, max = 8) int bound) {
        Random random = new Random(seed);
        MethodDictionary dictionary = new MethodDictionary(bound);
        for (int i = 0; i < 200; i++) {
            String c = CLASSES[random.nextInt(CLASSES.length)] + random.nextInt(3);
            String m = METHODS[random.nextInt(METHODS.length)];
            String d = random.nextBoolean() ? "()V" : "(I)J";
            assertThat(dictionary.record(c, m, d))
                    .isEqualTo(MethodRecord.of(ClassNames.normalise(c), MethodNames.normalise(m), d));
            assertThat(dictionary.size()).isLessThanOrEqualTo(bound);
        }
    }

    /**
     * Thousands of distinct entries, each looked up again: every record equals one computed afresh,
     * and entries held are found, not added again. With a bound on bytes instead, the dictionary
     * empties before it would pass it and still answers the same.
     */
    @Property(tries = 20)
    void manyEntriesAndABoundOnBytesGiveFreshlyComputedRecords(@ForAll long seed) {
        Random random = new Random(seed);
        MethodDictionary unbounded = new MethodDictionary(Integer.MAX_VALUE);
        int maxBytes = 64 + random.nextInt(2_000);
        MethodDictionary byBytes = new MethodDictionary(Integer.MAX_VALUE, maxBytes);
        int distinct = 1 + random.nextInt(5_000);
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < distinct; i++) {
                String c = CLASSES[i % CLASSES.length] + "$Inner" + i;
                String m = METHODS[i % METHODS.length];
                String d = "(" + "J".repeat(i % 7) + ")V";
                MethodRecord fresh = MethodRecord.of(ClassNames.normalise(c), MethodNames.normalise(m), d);
                assertThat(unbounded.record(c, m, d)).isEqualTo(fresh);
                assertThat(byBytes.record(c, m, d)).isEqualTo(fresh);
            }
            assertThat(unbounded.size()).as("round %d", round).isEqualTo(distinct);
            // each entry here takes at least 21 bytes: three string lengths (3), "a.B$1$Inner0",
            // "run" and "()V"
            assertThat(21 * byBytes.size()).isLessThanOrEqualTo(maxBytes);
        }
    }

    /**
     * A string length claimed by a corrupt record is refused before anything is allocated: Avro's
     * own {@code readString} would try to allocate it (here 2 GiB), an out-of-memory error in a
     * task manager instead of one dead-lettered record.
     */
    @Test
    void aCorruptStringLengthIsRefusedWithoutAllocatingIt() {
        byte[] valid = TestBatches.encode(randomBatch(new Random(7)));
        // the instance's service name, right after the 10-byte header, is short: its length is one
        // byte; claim Integer.MAX_VALUE - 8 bytes instead (zigzag varint EE FF FF FF 0F)
        byte[] claim = {(byte) 0xEE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F};
        byte[] corrupt = new byte[valid.length - 1 + claim.length];
        System.arraycopy(valid, 0, corrupt, 0, 10);
        System.arraycopy(claim, 0, corrupt, 10, claim.length);
        System.arraycopy(valid, 11, corrupt, 10 + claim.length, valid.length - 11);

        assertThatThrownBy(() -> new SampleBatchReader(new MethodDictionary(10)).read(record(corrupt)))
                .isInstanceOf(BatchDecoder.InvalidRecordException.class)
                .hasMessageContaining("string of 2147483639 bytes in a record of " + corrupt.length);
    }

    private static void assertSameOutcome(byte[] bytes, String what) {
        Object expected = reference(bytes);
        Object actual = outcome(new SampleBatchReader(new MethodDictionary(1000)), bytes);
        assertThat(describe(actual)).as("%s; Avro: %s", what, expected instanceof Exception e ? e.getMessage() : "read")
                .isEqualTo(describe(expected));
    }

    /**
     * Avro's outcome. An absurd element count in a corrupted record can make Avro's reader
     * preallocate more than the heap holds; that is a rejection too (the reader under test never
     * allocates by a claimed count).
     */
    private static Object reference(byte[] bytes) {
        try {
            return DecodedBatch.of(BatchDecoder.decode(record(bytes)), new MethodDictionary(1000));
        } catch (BatchDecoder.InvalidRecordException e) {
            return e;
        } catch (OutOfMemoryError e) {
            return new BatchDecoder.InvalidRecordException("not an Avro single-object SampleBatch: " + e, e);
        }
    }

    private static Object outcome(SampleBatchReader reader, byte[] bytes) {
        try {
            return reader.read(record(bytes));
        } catch (BatchDecoder.InvalidRecordException e) {
            return e;
        }
    }

    /** A comparable description: the batch's content, or the rejection (its message when validation rejected). */
    private static String describe(Object outcome) {
        if (outcome instanceof BatchDecoder.InvalidRecordException e) {
            return e.getMessage().startsWith("not an Avro") ? "rejected: undecodable" : "rejected: " + e.getMessage();
        }
        DecodedBatch b = (DecodedBatch) outcome;
        StringBuilder s = new StringBuilder();
        InstanceInfo i = b.instance();
        s.append(List.of(i.getService(), i.getVersion(), i.getInstanceId(), i.getHost(), i.getPid(),
                i.getStartTimeMillis(), new java.util.TreeMap<>(i.getLabels())));
        s.append(List.of(b.windowStartMillis(), b.windowEndMillis(), b.sequence(), b.samplingPeriodMillis()));
        s.append(Arrays.toString(b.methods()));
        for (int st = 0; st < b.stacks(); st++) {
            int from = b.stackStart(st);
            int to = from + b.depth(st);
            s.append("\n").append(Arrays.toString(Arrays.copyOfRange(b.frames(), from, to)))
                    .append(Arrays.toString(Arrays.copyOfRange(b.lines(), from, to)))
                    .append(List.of(b.thread(st), b.truncated(st), b.count(st)));
        }
        s.append("\n").append(b.rawThreadNames());
        return s.toString();
    }

    private static RawRecord record(byte[] bytes) {
        return new RawRecord("samples", 0, 0, null, bytes);
    }

    private static SampleBatch randomBatch(Random random) {
        boolean valid = random.nextInt(4) > 0;
        String service = valid || random.nextBoolean() ? "svc" + random.nextInt(3) : " ";
        Map<String, String> labels = new HashMap<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            labels.put("k" + random.nextInt(5), "v" + random.nextInt(5));
        }
        InstanceInfo info = new InstanceInfo(service, "v1", "i-" + random.nextInt(100), "host", random.nextLong(),
                random.nextLong(), labels);
        long start = random.nextLong() >> 8;
        long end = valid || random.nextBoolean() ? start + random.nextInt(20_000) : start - 1 - random.nextInt(100);
        List<MethodRef> methods = new ArrayList<>();
        for (int i = random.nextInt(12); i > 0; i--) {
            methods.add(new MethodRef(CLASSES[random.nextInt(CLASSES.length)], METHODS[random.nextInt(METHODS.length)],
                    random.nextBoolean() ? "()V" : "(Ljava/lang/String;)I"));
        }
        List<Stack> stacks = new ArrayList<>();
        for (int s = random.nextInt(15); s > 0; s--) {
            int depth = random.nextInt(70);
            List<Integer> frames = new ArrayList<>();
            List<Integer> lines = new ArrayList<>();
            for (int f = 0; f < depth; f++) {
                boolean outOfRange = !valid && random.nextInt(50) == 0;
                frames.add(methods.isEmpty() || outOfRange ? random.nextInt(40) - 20 : random.nextInt(methods.size()));
                lines.add(random.nextInt(3) == 0 ? random.nextInt(100_000) : random.nextInt(200) - 5);
            }
            if (!valid && random.nextInt(10) == 0) {
                lines.add(1);
            }
            long count = !valid && random.nextInt(10) == 0 ? -random.nextInt(2) : 1 + random.nextInt(100);
            stacks.add(new Stack(frames, lines, THREADS[random.nextInt(THREADS.length)], random.nextInt(5) == 0, count));
        }
        AgentStats stats = random.nextBoolean() ? null : new AgentStats(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L,
                256, random.nextBoolean() ? "" : "warnung ⚠");
        List<PoolThreads> raw = new ArrayList<>();
        for (int p = random.nextInt(3); p > 0; p--) {
            List<String> names = new ArrayList<>();
            for (int t = 1 + random.nextInt(3); t > 0; t--) {
                names.add("pool-" + p + "-thread-" + random.nextInt(20));
            }
            raw.add(new PoolThreads("pool-#-thread-#", names));
        }
        return new SampleBatch(info, start, end, random.nextLong(), 20, methods, stacks, stats, raw);
    }
}
