package io.cctflow.agent.importer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;

class CollapsedFileReaderTest {
    private static final InstanceInfo INFO = InstanceInfo.newBuilder().setService("s")
            .setVersion("v").setInstanceId("i").setHost("imported").setPid(0).setStartTimeMillis(0)
            .build();
    private static final String NO_COUNT = "expected '<frame>;<frame>... <count>', found no count";

    @TempDir
    Path dir;

    private final List<SampleBatch> sent = new ArrayList<>();
    private long sequence;
    private final EventTimeBatcher batcher =
            new EventTimeBatcher(INFO, 20, 10_000, new AgentCounters(), () -> sequence++, sent::add);
    private final List<String> errors = new ArrayList<>();
    private final CollapsedFileReader reader = new CollapsedFileReader();

    private long read(Path file) throws Exception {
        return reader.read(file, 1_000, batcher, errors::add);
    }

    /** The recorded stacks as "method;method... count", leaf last. */
    private List<String> stacks() {
        batcher.finish();
        List<String> stacks = new ArrayList<>();
        for (SampleBatch batch : sent) {
            for (Stack stack : batch.getStacks()) {
                stacks.add(stack.getFrames().stream()
                        .map(i -> batch.getMethods().get(i)).map(MethodRef::getMethodName)
                        .collect(Collectors.joining(";")) + " " + stack.getCount());
            }
        }
        return stacks;
    }

    @Test
    void badLinesAreReportedWithTheirLineNumbersAndTheGoodLinesAreRecorded() throws Exception {
        Path file = Files.writeString(dir.resolve("mixed.collapsed"), String.join("\n",
                "# a comment",
                "a.B.c;a.B.d 3",
                "no-count-here",
                "",
                "a.B.c 0",
                "[main];a.B.e 2"));

        long skipped = read(file);

        assertThat(skipped).isEqualTo(2);
        assertThat(errors).containsExactly(
                "file " + file + ": line 3 skipped: " + NO_COUNT,
                "file " + file + ": line 5 skipped: count is 0");
        assertThat(stacks()).containsExactlyInAnyOrder("c;d 3", "e 2");
        assertThat(batcher.samples()).isEqualTo(5);
    }

    @Test
    void onlyTheFirstTenBadLinesAreListedThenHowManyThereWereInAll() throws Exception {
        StringBuilder text = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 25; i++) {
            text.append("a.B.good").append(i).append(" 1\n").append("bad").append(i).append('\n');
            if (i <= CollapsedFileReader.MAX_REPORTED_LINES) {
                expected.add("file " + dir.resolve("many.collapsed") + ": line " + (2 * i)
                        + " skipped: " + NO_COUNT);
            }
        }
        Path file = Files.writeString(dir.resolve("many.collapsed"), text);
        expected.add("file " + file + ": 25 lines skipped in all (15 more not listed)");

        long skipped = read(file);

        assertThat(skipped).isEqualTo(25);
        assertThat(errors).containsExactlyElementsOf(expected);
        assertThat(stacks()).hasSize(25);
        assertThat(batcher.samples()).isEqualTo(25);
    }

    @Test
    void tenBadLinesAreAllListedWithoutATotal() throws Exception {
        Path file = Files.writeString(dir.resolve("ten.collapsed"), "bad\n".repeat(10) + "a.B.c 1\n");

        assertThat(read(file)).isEqualTo(10);

        assertThat(errors).hasSize(10).allSatisfy(e -> assertThat(e).contains(" skipped: " + NO_COUNT));
        assertThat(errors.get(9)).startsWith("file " + file + ": line 10 skipped");
        assertThat(stacks()).containsExactly("c 1");
    }

    @Test
    void theListAndTheTotalArePerFile() throws Exception {
        Path first = Files.writeString(dir.resolve("first.collapsed"), "bad\n".repeat(12));
        Path second = Files.writeString(dir.resolve("second.collapsed"), "a.B.c 1\nbad\n");

        assertThat(read(first)).isEqualTo(12);
        errors.clear();
        assertThat(read(second)).isEqualTo(1);

        assertThat(errors).containsExactly("file " + second + ": line 2 skipped: " + NO_COUNT);
    }

    @Test
    void bytesThatAreNotUtf8AreReportedWithLineAndByteOffsetAndTheOtherLinesAreRecorded()
            throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes("a.B.größe 1\n".getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes("a.B.caf".getBytes(StandardCharsets.UTF_8));
        long badOffset = bytes.size();
        bytes.writeBytes("é 2\n".getBytes(StandardCharsets.ISO_8859_1)); // é is 0xE9 in Latin-1
        bytes.writeBytes("a.B.d 4\n".getBytes(StandardCharsets.UTF_8));
        Path file = Files.write(dir.resolve("latin1.collapsed"), bytes.toByteArray());

        long skipped = read(file);

        assertThat(skipped).isEqualTo(1);
        assertThat(errors).containsExactly("file " + file + ": line 2 skipped: not UTF-8 at byte"
                + " offset " + badOffset + " (0xE9)");
        assertThat(badOffset).isEqualTo(21); // "a.B.größe 1\n" is 14 bytes, then 7
        assertThat(stacks()).containsExactlyInAnyOrder("größe 1", "d 4");
    }

    @Test
    void aUtf8SequenceCutShortAtTheEndOfALineIsReportedWhereItStarts() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes("a.B.c 1\na.B.d 2 ".getBytes(StandardCharsets.UTF_8));
        bytes.write(0xE2); // first of three bytes of a character
        bytes.write(0x82);
        bytes.writeBytes("\na.B.e 3".getBytes(StandardCharsets.UTF_8));
        Path file = Files.write(dir.resolve("cut.collapsed"), bytes.toByteArray());

        assertThat(read(file)).isEqualTo(1);

        assertThat(errors).containsExactly("file " + file + ": line 2 skipped: not UTF-8 at byte"
                + " offset 16 (0xE2 0x82)");
        assertThat(stacks()).containsExactlyInAnyOrder("c 1", "e 3");
    }

    @Test
    void linesEndAtCrLfOrCrOrLfAndTheLastLineNeedsNoEnd() throws Exception {
        Path file = Files.writeString(dir.resolve("ends.collapsed"),
                "a.B.c 1\r\nbad\ra.B.d 2\n\r\nlast-bad");

        assertThat(read(file)).isEqualTo(2);

        assertThat(errors).containsExactly("file " + file + ": line 2 skipped: " + NO_COUNT,
                "file " + file + ": line 5 skipped: " + NO_COUNT);
        assertThat(stacks()).containsExactlyInAnyOrder("c 1", "d 2");
    }

    @Test
    void lineNumbersAndOffsetsStayRightPastALineLongerThanTheReadBuffer() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(("x".repeat(70_000) + "\n").getBytes(StandardCharsets.UTF_8)); // > 64 KiB
        bytes.writeBytes("a.B.caf".getBytes(StandardCharsets.UTF_8));
        bytes.write(0xE9);
        bytes.writeBytes(" 1\na.B.d 2\n".getBytes(StandardCharsets.UTF_8));
        Path file = Files.write(dir.resolve("long.collapsed"), bytes.toByteArray());

        assertThat(read(file)).isEqualTo(2);

        assertThat(errors).containsExactly("file " + file + ": line 1 skipped: " + NO_COUNT,
                "file " + file + ": line 2 skipped: not UTF-8 at byte offset 70008 (0xE9)");
        assertThat(stacks()).containsExactly("d 2");
    }
}
