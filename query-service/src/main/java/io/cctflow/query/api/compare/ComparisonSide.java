package io.cctflow.query.api.compare;

import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.query.api.Limits;
import io.cctflow.query.api.Selection;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.QueryParams;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One side of a comparison as a {@link Selection}: each selection parameter is taken from the first
 * prefix that has it, e.g. {@code a.version} before {@code version}, so a shared parameter applies
 * to both sides unless a side overrides it. Errors name the parameter as the client wrote it.
 */
final class ComparisonSide {
    /** The parameters {@link Selection#of} reads, in a stable order. */
    static final List<String> SELECTION_PARAMS = Selection.PARAMS.stream().sorted().toList();
    /** Those that may be repeated. */
    private static final Set<String> REPEATABLE = Set.of("instance", "label");

    private ComparisonSide() {
    }

    /**
     * The selection of one side.
     *
     * @param prefixes most specific first, e.g. {@code "a.", ""}
     * @throws ApiException 400 naming a malformed parameter, 404 for an unknown service, version or
     *     instance
     */
    static Selection select(QueryParams params, CatalogueReader catalogue, Limits limits, String... prefixes) {
        Map<String, List<String>> side = new LinkedHashMap<>();
        Map<String, String> source = new LinkedHashMap<>();
        for (String name : SELECTION_PARAMS) {
            for (String prefix : prefixes) {
                String key = prefix + name;
                List<String> values = params.all(key);
                if (!values.isEmpty()) {
                    if (!REPEATABLE.contains(name)) {
                        params.optional(key); // rejects a repeated single-valued parameter, naming it
                    }
                    side.put(name, values);
                    source.put(name, key);
                    break;
                }
            }
        }
        Optional<Instant> from = Optional.ofNullable(source.get("from")).flatMap(params::instant);
        Optional<Instant> to = Optional.ofNullable(source.get("to")).flatMap(params::instant);
        if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
            throw ApiException.badRequest("parameter '" + source.get("from") + "' (" + from.get()
                    + ") must be before '" + source.get("to") + "' (" + to.get() + ")");
        }
        if (!side.containsKey("service") && !side.containsKey("at")) {
            throw ApiException.badRequest("missing required parameter 'service' (or 'at=service@version')");
        }
        return Selection.of(QueryParams.of(side), catalogue, limits);
    }

    /** Whether any parameter of the side under {@code prefix} is given. */
    static boolean given(QueryParams params, String prefix) {
        return SELECTION_PARAMS.stream().anyMatch(n -> !params.all(prefix + n).isEmpty());
    }

    /** The one version all of a selection's instances belong to, if there is one. */
    static Optional<String> deployment(Selection s) {
        if (s.version() != null) {
            return Optional.of(s.version());
        }
        List<String> versions = s.instances().stream().map(i -> i.version()).distinct().toList();
        return versions.size() == 1 ? Optional.of(versions.get(0)) : Optional.empty();
    }
}
