package io.cctflow.query.api;

import io.cctflow.core.collect.WeighedLru;
import io.cctflow.graph.read.RangePlanner;

/**
 * Trees loaded for selections ({@link TreeSource}), kept across requests, least recently used
 * evicted first, so a repeated view, another format or a re-queried zoom of it neither reads nor
 * rebuilds its tree again. Keyed by the settled versions of the windows the read plan reads
 * ({@link RangePlanner.Plan#settledVersions}, the window cache's notion of a version, as one
 * 128-bit digest: 32 characters however many windows the plan lists, about 24,000 for a day of
 * 1,000 instances): a tree is a function of those windows' counts (a node's topology never changes once written), whatever
 * selection and range listed them. A window written since (a new one in the range, a late batch,
 * a re-rolled hour) changes the name, so the next request loads the new tree; a plan with a window
 * written within the settle time has no name and is neither served nor kept.
 *
 * <p>Bounded by weight: a tree weighs its nodes plus its per-thread entries (about 100 and 40
 * bytes of heap each) plus its name's length / 32 + 1 (2 for the digest); a tree heavier than the
 * whole bound is not kept. The trees handed out are shared between requests: callers must not
 * modify them. Thread-safe.
 */
final class TreeCache {
    /** Default bound: one million nodes, about 100 MB of heap (ten trees of 100,000 nodes). */
    static final long DEFAULT_WEIGHT = 1_000_000;

    private final WeighedLru<String, TreeSource.Named> entries;

    /** @param capacity most weight kept; 0 keeps nothing */
    TreeCache(long capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("tree cache capacity must be >= 0, got " + capacity);
        }
        this.entries = new WeighedLru<>(capacity);
    }

    /** The tree loaded from these versions, or null (also for null: unsettled versions). */
    synchronized TreeSource.Named get(String settledVersions) {
        if (settledVersions == null) {
            return null;
        }
        return entries.get(settledVersions);
    }

    /** Keeps the tree loaded from these versions, unless they are null (unsettled) or it outweighs the bound. */
    synchronized void put(String settledVersions, TreeSource.Named tree) {
        if (settledVersions != null) {
            entries.put(settledVersions, tree, weigh(settledVersions, tree));
        }
    }

    /** Weight held now. */
    synchronized long weight() {
        return entries.weight();
    }

    /** Trees held now. */
    synchronized int size() {
        return entries.size();
    }

    static long weigh(String settledVersions, TreeSource.Named tree) {
        return tree.tree().size() + tree.tree().threadEntries() + settledVersions.length() / 32 + 1;
    }
}
