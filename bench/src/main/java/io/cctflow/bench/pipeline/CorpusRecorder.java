package io.cctflow.bench.pipeline;

import io.cctflow.agent.batch.MethodId;
import io.cctflow.agent.batch.SampleRecorder;
import io.cctflow.agent.sampling.ExecutionSamples;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Regenerates the stack corpus ({@link StackCorpus#RESOURCE}) from a {@code .jfr} recording: every
 * {@code jdk.ExecutionSample} goes through the collector's own conversion ({@link ExecutionSamples}),
 * identical stacks are summed, and the result is written as gzip-compressed collapsed stacks
 * ({@code [thread];pkg.Class.method(desc):line;... count}, most frequent first), which the collector's
 * collapsed parser reads back with descriptors and call-site lines intact. Truncated stacks are left
 * out (the simulated fleet records at a stack depth where they are rare) and counted.
 *
 * <pre>
 * java -cp 'bench/target/classes:bench/target/lib/*' io.cctflow.bench.pipeline.CorpusRecorder rec.jfr out.collapsed.gz
 * </pre>
 *
 * <p>Single-threaded command; not for use as a library.
 */
public final class CorpusRecorder implements SampleRecorder {
    private final Map<String, Long> counts = new HashMap<>();
    private long samples;
    private long truncated;

    private CorpusRecorder() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: CorpusRecorder <recording.jfr> <out.collapsed.gz>");
            System.exit(2);
        }
        CorpusRecorder recorder = new CorpusRecorder();
        ExecutionSamples conversion = new ExecutionSamples(false);
        try (RecordingFile file = new RecordingFile(Path.of(args[0]))) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (event.getEventType().getName().equals("jdk.ExecutionSample")) {
                    conversion.read(event, recorder);
                }
            }
        }
        recorder.write(Path.of(args[1]));
        System.out.printf("%d samples, %d distinct stacks written, %d truncated samples left out, %d bytes%n",
                recorder.samples, recorder.counts.size(), recorder.truncated, Files.size(Path.of(args[1])));
    }

    @Override
    public void record(MethodId[] frames, int[] lines, int depth, String thread, boolean isTruncated) {
        if (isTruncated) {
            truncated++;
            return;
        }
        samples++;
        counts.merge(collapsed(frames, lines, depth, thread), 1L, Long::sum);
    }

    /**
     * One collapsed line without its count. Collapsed frames carry the line each frame was
     * <em>executing</em>, which is the call-site line of the next frame; the leaf's own executing
     * line is not part of a CCT path and is left out.
     */
    static String collapsed(MethodId[] frames, int[] callSiteLines, int depth, String thread) {
        StringBuilder b = new StringBuilder(depth * 48).append('[').append(thread).append(']');
        for (int i = 0; i < depth; i++) {
            MethodId m = frames[i];
            b.append(';').append(m.className()).append('.').append(m.methodName()).append(m.descriptor());
            if (i + 1 < depth && callSiteLines[i + 1] > 0) {
                b.append(':').append(callSiteLines[i + 1]);
            }
        }
        return b.toString();
    }

    private void write(Path out) throws IOException {
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        try (BufferedWriter w = new BufferedWriter(new OutputStreamWriter(
                new GZIPOutputStream(Files.newOutputStream(out)), StandardCharsets.UTF_8))) {
            for (Map.Entry<String, Long> e : sorted) {
                w.write(e.getKey());
                w.write(' ');
                w.write(Long.toString(e.getValue()));
                w.write('\n');
            }
        }
    }
}
