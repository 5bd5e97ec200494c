package io.cctflow.query.api;

import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.model.NodeRecord;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/v1/context?node=ID}: decodes a calling context (seed 004): the node's full path
 * of (method, call-site line) frames from the thread root down to the node. A node id is a hash of
 * its path and the same in every instance, service and time range, so no selection is needed; the
 * tree and compare responses give the ids this endpoint takes. At most {@code limits.max-results}
 * frames (a deeper node is a 400 naming the limit).
 */
public final class ContextEndpoint implements JsonHandler.Endpoint {
    public static final String PATH = "/api/v1/context";
    public static final Set<String> PARAMS = Set.of("node");
    /** The link the tree and compare responses give, {@code {id}} standing for a node id. */
    public static final String LINK = PATH + "?node={id}";

    private final CatalogueReader catalogue;
    private final TopologyReader topology;
    private final Limits limits;

    public ContextEndpoint(CatalogueReader catalogue, TopologyReader topology, Limits limits) {
        this.catalogue = catalogue;
        this.topology = topology;
        this.limits = limits;
    }

    /**
     * One frame: the method (its signature) and the line its caller was executing; the node id of
     * the context that ends here and its depth (1 for the thread root frame).
     */
    public record Frame(String id, int depth, String method, int line) {
    }

    /** The response body: frames outermost first, the last being the node itself. */
    public record Response(String node, int depth, List<Frame> frames) {
    }

    @Override
    public Response handle(QueryParams params) {
        params.allowOnly(PARAMS);
        long node = NodeIds.parse("node", params.required("node"));
        List<NodeRecord> path;
        try {
            path = topology.path(node, limits.maxResults());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage() + " frames, the limit limits.max-results; raise the limit"
                    + " to decode it (parameter 'node')");
        }
        if (path.isEmpty()) {
            throw ApiException.notFound("node " + Long.toUnsignedString(node) + " (parameter 'node') is not stored;"
                    + " node ids come from /api/v1/tree and /api/v1/compare");
        }
        Map<Long, String> names = MethodResolver.signatures(catalogue,
                path.stream().map(NodeRecord::methodId).toList());
        List<Frame> frames = new ArrayList<>(path.size());
        for (NodeRecord n : path) {
            frames.add(new Frame(Long.toString(n.id()), n.depth(), names.get(n.methodId()), n.line()));
        }
        return new Response(Long.toString(node), path.size(), frames);
    }
}
