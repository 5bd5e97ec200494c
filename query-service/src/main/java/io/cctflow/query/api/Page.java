package io.cctflow.query.api;

import io.cctflow.query.http.QueryParams;
import java.util.List;
import java.util.Set;

/**
 * One page of a listing: {@code offset} (default 0) entries skipped, at most {@code limit}
 * (default {@code limits.page-size}; never more than {@code limits.max-results}) returned. A response says
 * {@code total} (entries of the whole listing), its {@code offset} and {@code limit}, and {@code
 * next}: the offset of the next page, or null on the last one. Listings are in a stable order
 * (service, version, instance), so pages do not overlap while nothing is written.
 */
public record Page(int offset, int limit) {
    /** The paging parameters, for an endpoint's {@code PARAMS}. */
    public static final Set<String> PARAMS = Set.of("limit", "offset");

    /** The page a request asks for; a 400 naming the parameter when out of range. */
    public static Page of(QueryParams params, Limits limits) {
        return new Page(params.integer("offset", 0, Integer.MAX_VALUE).orElse(0),
                params.integer("limit", 1, limits.maxResults()).orElse(Math.min(limits.pageSize(), limits.maxResults())));
    }

    /** This page of {@code all}. */
    public <T> List<T> of(List<T> all) {
        int from = Math.min(offset, all.size());
        int to = (int) Math.min((long) from + limit, all.size());
        return all.subList(from, to);
    }

    /** The offset of the page after this one over {@code total} entries, or null when this is the last. */
    public Integer next(int total) {
        long next = (long) offset + limit;
        return next < total ? (int) next : null;
    }
}
