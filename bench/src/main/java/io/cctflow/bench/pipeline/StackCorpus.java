package io.cctflow.bench.pipeline;

import io.cctflow.agent.batch.MethodId;
import io.cctflow.agent.importer.CollapsedStacks;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPInputStream;

/**
 * The stacks of a real recorded application, read once from gzip-compressed collapsed stacks with
 * the collector's own parser ({@link CollapsedStacks}), interned into one method dictionary, and
 * drawn at random in proportion to how often they were recorded.
 *
 * <p>Immutable after loading; {@link #draw} is thread-safe as far as the given {@link Random} is.
 */
public final class StackCorpus {
    /** The committed corpus (see bench/README.md for how it was recorded). */
    public static final String RESOURCE = "/io/cctflow/bench/pipeline/maven-build.collapsed.gz";

    private final List<MethodId> methods;
    /** Per stack: method indexes, root first. */
    private final int[][] frames;
    /** Per stack: call-site lines, root first. */
    private final int[][] lines;
    private final String[] threads;
    /** Cumulative sample counts, for drawing in proportion to them. */
    private final long[] cumulative;

    private StackCorpus(List<MethodId> methods, int[][] frames, int[][] lines, String[] threads, long[] cumulative) {
        this.methods = methods;
        this.frames = frames;
        this.lines = lines;
        this.threads = threads;
        this.cumulative = cumulative;
    }

    /** Loads {@link #RESOURCE}. */
    public static StackCorpus load() {
        InputStream in = StackCorpus.class.getResourceAsStream(RESOURCE);
        if (in == null) {
            throw new IllegalStateException("stack corpus " + RESOURCE + " is not on the class path; build the bench module");
        }
        try (InputStream gz = new GZIPInputStream(in)) {
            return read(gz);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the stack corpus " + RESOURCE, e);
        }
    }

    /** Reads collapsed stacks (uncompressed) from {@code in}; a malformed line fails naming its number. */
    static StackCorpus read(InputStream in) throws IOException {
        Map<MethodId, Integer> index = new HashMap<>();
        List<MethodId> methods = new ArrayList<>();
        List<int[]> frames = new ArrayList<>();
        List<int[]> lines = new ArrayList<>();
        List<String> threads = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        CollapsedStacks parser = new CollapsedStacks();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        int lineNumber = 0;
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            try {
                parser.parse(line);
            } catch (CollapsedStacks.FormatException e) {
                throw new IOException("stack corpus line " + lineNumber + ": " + e.getMessage(), e);
            }
            int[] f = new int[parser.depth()];
            for (int i = 0; i < f.length; i++) {
                f[i] = index.computeIfAbsent(parser.frames()[i], m -> {
                    methods.add(m);
                    return methods.size() - 1;
                });
            }
            frames.add(f);
            lines.add(Arrays.copyOf(parser.lines(), f.length));
            threads.add(parser.thread());
            counts.add(parser.count());
        }
        if (frames.isEmpty()) {
            throw new IOException("stack corpus is empty");
        }
        long[] cumulative = new long[counts.size()];
        long sum = 0;
        for (int i = 0; i < cumulative.length; i++) {
            sum += counts.get(i);
            cumulative[i] = sum;
        }
        return new StackCorpus(List.copyOf(methods), frames.toArray(int[][]::new), lines.toArray(int[][]::new),
                threads.toArray(String[]::new), cumulative);
    }

    /** A stack index, drawn in proportion to the stacks' recorded sample counts. */
    public int draw(Random random) {
        long target = (long) (random.nextDouble() * cumulative[cumulative.length - 1]);
        int i = Arrays.binarySearch(cumulative, target + 1);
        return i >= 0 ? i : -i - 1;
    }

    public int stackCount() {
        return frames.length;
    }

    public int methodCount() {
        return methods.size();
    }

    public long sampleCount() {
        return cumulative[cumulative.length - 1];
    }

    public MethodId method(int index) {
        return methods.get(index);
    }

    /** Method indexes of stack {@code s}, root first; do not modify. */
    public int[] frames(int s) {
        return frames[s];
    }

    /** Call-site lines of stack {@code s}, root first; do not modify. */
    public int[] lines(int s) {
        return lines[s];
    }

    public String thread(int s) {
        return threads[s];
    }

    /** Mean frames per recorded sample. */
    public double meanDepth() {
        double sum = 0;
        long previous = 0;
        for (int i = 0; i < frames.length; i++) {
            sum += (double) frames[i].length * (cumulative[i] - previous);
            previous = cumulative[i];
        }
        return sum / sampleCount();
    }
}
