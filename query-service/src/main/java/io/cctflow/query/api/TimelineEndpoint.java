package io.cctflow.query.api;

import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.WindowCounts;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /api/v1/timeline}: samples per time bucket over a selection, for a timeline that can
 * be brushed to pick a range; with {@code method=M} (one overload) also M's method samples per
 * bucket (recursion-aware, seed 002 Eq. 3.5, as the samples job stored them per window), so its
 * share can be drawn. The range is cut into at most {@code buckets} equal buckets no shorter than
 * the shortest stored window read; a window counts in the bucket holding its start (a window that
 * starts before the range, in the first).
 */
public final class TimelineEndpoint implements JsonHandler.Endpoint {
    public static final Set<String> PARAMS = MethodMetricsEndpoint.union(Selection.PARAMS, Set.of("method", "buckets"));
    static final int DEFAULT_BUCKETS = 120;

    private final CatalogueReader catalogue;
    private final TreeSource trees;

    public TimelineEndpoint(CatalogueReader catalogue, TreeSource trees) {
        this.catalogue = catalogue;
        this.trees = trees;
    }

    /** One bucket [start, end): every sample, and the method's samples (0 without {@code method}). */
    public record Bucket(String start, String end, long samples, long methodSamples, double methodShare) {
    }

    public record Response(String service, String version, List<String> instances, String from, String to,
            String method, long bucketMillis, long totalSamples, long totalMethodSamples, List<Bucket> buckets) {
    }

    @Override
    public Response handle(QueryParams params) {
        params.allowOnly(PARAMS);
        int wanted = params.integer("buckets", 1, trees.limits().maxResults())
                .orElse(Math.min(DEFAULT_BUCKETS, trees.limits().maxResults()));
        MethodRecord method = params.optional("method").map(m -> MethodResolver.single(catalogue, "method", m))
                .orElse(null);
        Selection selection = Selection.of(params, catalogue, trees.limits());
        List<WindowCounts> windows = trees.windows(selection);
        long from = selection.from().toEpochMilli();
        long to = selection.to().toEpochMilli();
        long shortest = windows.stream().mapToLong(w -> w.windowEndMillis() - w.windowStartMillis()).min().orElse(1);
        long width = Math.max(Math.max(1, shortest), ceilDiv(to - from, wanted));
        int count = (int) Math.max(1, ceilDiv(to - from, width));
        long[] samples = new long[count];
        long[] methodSamples = new long[count];
        for (WindowCounts w : windows) {
            int b = (int) Math.min(count - 1, Math.max(0, w.windowStartMillis() - from) / width);
            samples[b] += w.counts().samples();
            if (method != null) {
                methodSamples[b] += methodSamples(w, method.id());
            }
        }
        List<Bucket> buckets = new ArrayList<>(count);
        for (int b = 0; b < count; b++) {
            long start = from + b * width;
            buckets.add(new Bucket(ServicesEndpoint.time(start), ServicesEndpoint.time(Math.min(to, start + width)),
                    samples[b], methodSamples[b], samples[b] == 0 ? 0 : (double) methodSamples[b] / samples[b]));
        }
        return new Response(selection.service(), selection.version(),
                selection.instances().stream().map(i -> i.instanceId()).toList(), selection.from().toString(),
                selection.to().toString(), method == null ? null : method.signature(), width,
                Arrays.stream(samples).sum(), Arrays.stream(methodSamples).sum(), buckets);
    }

    private static long methodSamples(WindowCounts w, long methodId) {
        int i = Arrays.binarySearch(w.counts().methodIds(), methodId);
        return i < 0 ? 0 : w.counts().methodSamples()[i];
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }
}
