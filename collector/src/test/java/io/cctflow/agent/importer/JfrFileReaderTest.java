package io.cctflow.agent.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.core.ClassNames;
import io.cctflow.core.ThreadNames;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;

/** Reads real recordings made in this JVM, whole and damaged. */
@Timeout(120)
class JfrFileReaderTest {
    private static final long WINDOW = 200;

    @TempDir
    static Path dir;
    private static Path recording;
    private static List<RecordedEvent> expectedEvents;

    /** One sample, independent of batching: what RecordingFile says, in the batch's terms. */
    record Sample(String thread, List<String> frames, List<Integer> lines, boolean truncated) {
    }

    @BeforeAll
    static void record() throws Exception {
        recording = TestRecordings.record(dir.resolve("app.jfr"), 30);
        expectedEvents = TestRecordings.executionSamples(recording);
    }

    private final List<SampleBatch> sent = new ArrayList<>();
    private long nextSequence;

    private EventTimeBatcher batcher() {
        InstanceInfo info = InstanceInfo.newBuilder().setService("s").setVersion("v")
                .setInstanceId("app").setHost("imported").setPid(0).setStartTimeMillis(0).build();
        return new EventTimeBatcher(info, 10, WINDOW, new AgentCounters(), () -> nextSequence++,
                sent::add);
    }

    @Test
    void importsExactlyTheExecutionSamplesRecordingFileReads() throws Exception {
        EventTimeBatcher batcher = batcher();

        new JfrFileReader(dir).read(recording, JfrChunks.scan(recording), batcher, () -> { });
        batcher.finish();

        List<Sample> expected = expectedEvents.stream().map(JfrFileReaderTest::expected).toList();
        assertThat(expected).as("samples of the busy thread")
                .anyMatch(s -> s.thread().equals("import-worker-#"));
        assertThat(expanded(sent)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(batcher.samples()).isEqualTo(expected.size());
    }

    @Test
    void namesTheWorkersLambdaFrameWithoutItsPerRunAddress() throws Exception {
        // the worker runs a lambda: JFR names its hidden class with an address and a hash
        String lambda = TestRecordings.class.getName() + "$$Lambda$";
        assertThat(expectedEvents).as("JFR's raw name of the worker's lambda class")
                .anyMatch(e -> e.getStackTrace().getFrames().stream()
                        .map(f -> f.getMethod().getType().getName())
                        .anyMatch(c -> c.startsWith(lambda) && c.contains("0x")));
        EventTimeBatcher batcher = batcher();

        new JfrFileReader(dir).read(recording, JfrChunks.scan(recording), batcher, () -> { });
        batcher.finish();

        List<Sample> imported = expanded(sent);
        assertThat(imported).as("samples through the lambda, named without address")
                .anyMatch(s -> s.frames().contains(lambda + "#.run()V"));
        assertThat(imported).allMatch(s -> s.frames().stream().noneMatch(f -> f.contains("0x")));
    }

    @Test
    void cutsBatchesIntoEventTimeWindowsWithConsecutiveSequenceNumbers() throws Exception {
        EventTimeBatcher batcher = batcher();

        new JfrFileReader(dir).read(recording, JfrChunks.scan(recording), batcher, () -> { });
        batcher.finish();

        Map<Long, Long> expectedPerWindow = new TreeMap<>();
        for (RecordedEvent e : expectedEvents) {
            long start = Math.floorDiv(e.getStartTime().toEpochMilli(), WINDOW) * WINDOW;
            expectedPerWindow.merge(start, 1L, Long::sum);
        }
        Map<Long, Long> perWindow = new TreeMap<>();
        for (SampleBatch b : sent) {
            assertThat(b.getWindowEndMillis() - b.getWindowStartMillis()).isEqualTo(WINDOW);
            perWindow.merge(b.getWindowStartMillis(),
                    b.getStacks().stream().mapToLong(Stack::getCount).sum(), Long::sum);
        }
        assertThat(perWindow).isEqualTo(expectedPerWindow);
        assertThat(sent).extracting(SampleBatch::getSequence)
                .containsExactlyElementsOf(sequence(sent.size()));
    }

    @Test
    void readsEveryChunkOfAMultiChunkFile() throws Exception {
        Path twice = TestRecordings.concat(recording, recording, dir.resolve("twice.jfr"));
        EventTimeBatcher batcher = batcher();

        List<JfrChunks.Chunk> chunks = JfrChunks.scan(twice);
        new JfrFileReader(dir).read(twice, chunks, batcher, () -> { });
        batcher.finish();

        assertThat(chunks).hasSize(2 * JfrChunks.scan(recording).size());
        assertThat(chunks.get(chunks.size() / 2).offset()).isEqualTo(Files.size(recording));
        assertThat(batcher.samples()).isEqualTo(2L * expectedEvents.size());
        try (var leftovers = Files.list(dir)) {
            assertThat(leftovers.map(p -> p.getFileName().toString()))
                    .as("temporary chunk copies are deleted").noneMatch(n -> n.startsWith("cctflow-import-chunk-"));
        }
    }

    @Test
    void fileCutInHalfIsReportedAsTruncatedAtTheChunkItEndsIn() throws Exception {
        long size = Files.size(recording);
        long cutAt = size / 2;
        Path half = TestRecordings.truncate(recording, dir.resolve("half.jfr"), cutAt);
        List<JfrChunks.Chunk> chunks = JfrChunks.scan(recording);
        int hit = chunkContaining(chunks, cutAt);
        JfrChunks.Chunk cut = chunks.get(hit);
        boolean headerWhole = cutAt - cut.offset() >= JfrChunks.HEADER_SIZE;

        CorruptFileException e = catchThrowableOfType(CorruptFileException.class,
                () -> JfrChunks.scan(half));

        assertThat(e.file()).isEqualTo(half);
        // the size field of the chunk that runs past the end, or the chunk itself if even its
        // header is cut
        assertThat(e.offset()).isEqualTo(cut.offset() + (headerWhole ? 8 : 0));
        assertThat(e.getMessage()).startsWith("file " + half + ": corrupt at byte offset "
                + e.offset() + ": chunk " + (hit + 1) + ": ").contains("truncated file?");
    }

    @Test
    void chunkCutAfterItsHeaderStartIsReportedAtItsOffset() throws Exception {
        Path twice = TestRecordings.concat(recording, recording, dir.resolve("twice-cut.jfr"));
        long first = Files.size(recording);
        Path cut = TestRecordings.truncate(twice, dir.resolve("cut.jfr"), first + 40);
        int chunksOfOne = JfrChunks.scan(recording).size();

        CorruptFileException e = catchThrowableOfType(CorruptFileException.class,
                () -> JfrChunks.scan(cut));

        assertThat(e.offset()).isEqualTo(first);
        assertThat(e.getMessage()).contains("corrupt at byte offset " + first,
                "chunk " + (chunksOfOne + 1) + ": only 40 bytes left");
    }

    @Test
    void flippedMagicBytesAreReportedAtOffsetZero() throws Exception {
        Path flipped = TestRecordings.flip(recording, dir.resolve("flipped.jfr"), 0, 2);

        assertThatThrownBy(() -> JfrChunks.scan(flipped)).isInstanceOf(CorruptFileException.class)
                .hasMessage("file " + flipped + ": corrupt at byte offset 0: chunk 1: no chunk starts"
                        + " here (magic bytes are not FLR\\0); not a JFR recording?");
    }

    @Test
    void flippedChunkSizeIsReportedAtTheSizeField() throws Exception {
        Path flipped = TestRecordings.flip(recording, dir.resolve("flipped-size.jfr"), 8, 1);

        CorruptFileException e = catchThrowableOfType(CorruptFileException.class,
                () -> JfrChunks.scan(flipped));

        assertThat(e.offset()).isEqualTo(8);
    }

    @Test
    void unparsableChunkIsReportedAtItsOffsetAfterTheChunksBeforeItWereRead() throws Exception {
        Path twice = TestRecordings.concat(recording, recording, dir.resolve("twice-bad.jfr"));
        long first = Files.size(recording);
        List<JfrChunks.Chunk> chunksOfOne = JfrChunks.scan(recording);
        // wipe the metadata event of the copy's first chunk: the chunk headers stay valid, so
        // only JFR's parser can notice
        long metadata = ByteBuffer.wrap(Files.readAllBytes(recording), 24, 8).getLong();
        Path bad = TestRecordings.flip(twice, dir.resolve("bad.jfr"), first + metadata, 64);
        List<JfrChunks.Chunk> chunks = JfrChunks.scan(bad);
        EventTimeBatcher batcher = batcher();

        CorruptFileException e = catchThrowableOfType(CorruptFileException.class,
                () -> new JfrFileReader(dir).read(bad, chunks, batcher, () -> { }));
        batcher.finish();

        assertThat(e).as("JFR's parser rejects the wiped metadata").isNotNull();
        assertThat(e.offset()).isEqualTo(first);
        assertThat(e.getMessage()).startsWith("file " + bad + ": corrupt at byte offset " + first
                + ": chunk " + (chunksOfOne.size() + 1) + " of " + chunks.size())
                .contains("cannot be parsed");
        assertThat(batcher.samples()).as("the samples of the chunks before it")
                .isEqualTo(expectedEvents.size());
    }

    @Test
    void emptyAndNonJfrFilesAreReportedAtOffsetZero() throws Exception {
        Path empty = Files.write(dir.resolve("empty.jfr"), new byte[0]);
        Path text = Files.writeString(dir.resolve("text.jfr"), "a;b;c 42\n".repeat(20));

        assertThatThrownBy(() -> JfrChunks.scan(empty)).isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("corrupt at byte offset 0: the file is empty");
        assertThatThrownBy(() -> JfrChunks.scan(text)).isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("corrupt at byte offset 0: chunk 1: no chunk starts here");
        assertThat(JfrChunks.looksLikeJfr(text)).isFalse();
        assertThat(JfrChunks.looksLikeJfr(recording)).isTrue();
    }

    /** The sample of one event, computed here from RecordingFile's objects. */
    static Sample expected(RecordedEvent e) {
        List<RecordedFrame> top = e.getStackTrace().getFrames();
        List<String> frames = new ArrayList<>();
        List<Integer> executing = new ArrayList<>();
        for (RecordedFrame f : top) {
            frames.add(ClassNames.normalise(f.getMethod().getType().getName()) + "." + f.getMethod().getName()
                    + f.getMethod().getDescriptor());
            executing.add(Math.max(0, f.getLineNumber()));
        }
        Collections.reverse(frames);
        Collections.reverse(executing);
        List<Integer> callSites = new ArrayList<>();
        callSites.add(0);
        callSites.addAll(executing.subList(0, executing.size() - 1));
        var thread = e.getThread("sampledThread");
        String name = thread == null || thread.getJavaName() == null ? ThreadNames.UNKNOWN
                : ThreadNames.normalise(thread.getJavaName());
        return new Sample(name, frames, callSites, e.getStackTrace().isTruncated());
    }

    /** Every sample of the batches, one entry per count. */
    static List<Sample> expanded(List<SampleBatch> batches) {
        List<Sample> samples = new ArrayList<>();
        for (SampleBatch b : batches) {
            for (Stack st : b.getStacks()) {
                List<String> frames = new ArrayList<>();
                for (int index : st.getFrames()) {
                    MethodRef m = b.getMethods().get(index);
                    frames.add(m.getClassName() + "." + m.getMethodName() + m.getDescriptor());
                }
                Sample s = new Sample(st.getThread(), frames, List.copyOf(st.getLines()),
                        st.getTruncated());
                samples.addAll(Collections.nCopies(Math.toIntExact(st.getCount()), s));
            }
        }
        return samples;
    }

    private static int chunkContaining(List<JfrChunks.Chunk> chunks, long offset) {
        for (int i = 0; i < chunks.size(); i++) {
            JfrChunks.Chunk c = chunks.get(i);
            if (offset >= c.offset() && offset < c.offset() + c.size()) {
                return i;
            }
        }
        throw new AssertionError("no chunk contains " + offset);
    }

    private static List<Long> sequence(int n) {
        List<Long> s = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            s.add(i);
        }
        return s;
    }
}
