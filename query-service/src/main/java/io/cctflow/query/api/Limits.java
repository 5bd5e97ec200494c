package io.cctflow.query.api;

import java.time.Duration;

/**
 * What one request may cost; exceeding a limit is a 400 that says which limit, its value and
 * what to change ({@code limits.*} keys of the query service).
 *
 * @param maxLoadedNodes most distinct nodes the merged tree of one selection may have, checked
 *     before the tree is built (pruning comes after building)
 * @param pageSize entries of a listing page when the request gives no {@code limit} (capped at
 *     {@code maxResults})
 */
public record Limits(Duration maxRange, int maxWindows, int maxTreeNodes, int maxResults, int maxLoadedNodes,
        int pageSize) {
}
