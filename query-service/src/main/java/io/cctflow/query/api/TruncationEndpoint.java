package io.cctflow.query.api;

import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /api/v1/truncation}: what became of the truncated stacks (seed 002 Sect. 3.2, Fig.
 * 5.4-5.6) per instance and stored window of a selection, as the samples job stored them: merged
 * by maximal common merging, pending (no candidate yet), ambiguous (never merged), expired; each
 * with its share of every sample the windows received, so a user sees when the agent's stack depth
 * is too small. Read per instance (roll-ups where they cover the range), at most {@code
 * limits.max-windows} windows in all and {@code limits.max-results} listed per instance.
 */
public final class TruncationEndpoint implements JsonHandler.Endpoint {
    public static final String PATH = "/api/v1/truncation";
    public static final Set<String> PARAMS = Selection.PARAMS;

    private final CatalogueReader catalogue;
    private final TreeSource trees;

    public TruncationEndpoint(CatalogueReader catalogue, TreeSource trees) {
        this.catalogue = catalogue;
        this.trees = trees;
    }

    /**
     * The truncated-stack figures of some windows.
     *
     * @param samples every sample the windows received: those in the tree (complete stacks and
     *     merged truncated ones) plus the truncated ones not merged (pending, ambiguous, expired)
     * @param truncated every truncated sample: merged + pending + ambiguous + expired
     * @param truncatedShare truncated / samples (0 without samples); the other shares likewise
     */
    public record Figures(long samples, long truncated, long merged, long pending, long ambiguous, long expired,
            double truncatedShare, double mergedShare, double pendingShare, double ambiguousShare,
            double expiredShare) {

        static Figures of(long treeSamples, TruncationCounts t) {
            long samples = treeSamples + t.pending() + t.ambiguous() + t.expired();
            return new Figures(samples, t.total(), t.merged(), t.pending(), t.ambiguous(), t.expired(),
                    share(t.total(), samples), share(t.merged(), samples), share(t.pending(), samples),
                    share(t.ambiguous(), samples), share(t.expired(), samples));
        }

        private static double share(long part, long samples) {
            return samples == 0 ? 0.0 : (double) part / samples;
        }
    }

    /** One stored window (a fine window or a roll-up) of an instance. */
    public record Window(String start, String end, Figures figures) {
    }

    public record Instance(String instance, String version, Figures figures, List<Window> windows) {
    }

    public record Response(String service, String version, String from, String to, Figures figures,
            List<Instance> instances) {
    }

    @Override
    public Response handle(QueryParams params) {
        params.allowOnly(PARAMS);
        Selection selection = Selection.of(params, catalogue, trees.limits());
        List<Instance> instances = new ArrayList<>();
        long treeSamples = 0;
        TruncationCounts sum = TruncationCounts.NONE;
        long read = 0;
        for (InstanceRecord i : selection.instances()) {
            List<WindowCounts> windows = new ArrayList<>(trees.windows(new Selection(selection.service(),
                    selection.version(), List.of(i), selection.from(), selection.to())));
            read += windows.size();
            if (read > trees.limits().maxWindows()) {
                throw ApiException.badRequest("the request would read more than limits.max-windows = "
                        + trees.limits().maxWindows() + " stored windows; narrow 'from'/'to' or select fewer"
                        + " instances");
            }
            if (windows.size() > trees.limits().maxResults()) {
                throw ApiException.badRequest("instance '" + i.instanceId() + "' has " + windows.size() + " stored"
                        + " windows in the range, more than limits.max-results = " + trees.limits().maxResults()
                        + " listed per instance; narrow 'from'/'to'");
            }
            windows.sort(Comparator.comparingLong(WindowCounts::windowStartMillis));
            long instanceSamples = 0;
            TruncationCounts instanceSum = TruncationCounts.NONE;
            List<Window> rows = new ArrayList<>(windows.size());
            for (WindowCounts w : windows) {
                rows.add(new Window(ServicesEndpoint.time(w.windowStartMillis()),
                        ServicesEndpoint.time(w.windowEndMillis()), Figures.of(w.counts().samples(), w.truncation())));
                instanceSamples += w.counts().samples();
                instanceSum = instanceSum.plus(w.truncation());
            }
            instances.add(new Instance(i.instanceId(), i.version(), Figures.of(instanceSamples, instanceSum), rows));
            treeSamples += instanceSamples;
            sum = sum.plus(instanceSum);
        }
        return new Response(selection.service(), selection.version(), selection.from().toString(),
                selection.to().toString(), Figures.of(treeSamples, sum), instances);
    }
}
