package io.cctflow.core.truncated;

import io.cctflow.core.Cct;
import io.cctflow.core.NodeId;
import java.util.Arrays;

/**
 * Merges truncated stacks into a {@link Cct} by <em>maximal common merging</em> (seed 002 Sect.
 * 3.2.3, Listing 3.2).
 *
 * <p>A truncated stack (partial stack sample, PSS) is a stack whose bottom (root-most) frames are
 * missing. The candidates are first all nodes of the PSS's outermost method; then, frame by
 * frame, each candidate is replaced by its child matching the next frame. The walk stops at the
 * first of:
 * <ol>
 *   <li>no candidate left: {@link MergeResult#NO_CANDIDATE}, retry when the tree has grown;
 *   <li>exactly one candidate and more than {@code matchThreshold} frames matched: {@link
 *       MergeResult#MERGED}, the rest of the stack is added below that candidate;
 *   <li>the stack is used up with several candidates (or too few frames for the threshold):
 *       {@link MergeResult#AMBIGUOUS}, which retrying can never resolve.
 * </ol>
 *
 * <p>Matching, in a call-site CCT: the outermost frame matches on method only, because its
 * call-site line is the line of the missing caller and so unknown; every later frame matches
 * on (method, call-site line), i.e. it must be the exact child node.
 *
 * <p>A merged stack is counted as if the full stack had been seen: its count goes to the self
 * count of the leaf and to the total count of every node from the tree root through the
 * candidate to the leaf, each once. Nodes below the candidate are created as needed.
 *
 * <p>Cost of one attempt, with {@code k} the number of nodes of the outermost frame's method,
 * {@code m} the frames matched and {@code D} the candidate's depth: O(k + sum of the candidate set
 * sizes) &le; O(k &middot; m) hash lookups to find the candidate (never a scan of the tree),
 * plus O(D + depth) to merge, plus O(1) amortised per tree node created since the previous
 * attempt to keep the {@link MethodNodeIndex} up to date. No allocation except when scratch
 * buffers grow or the tree creates nodes.
 *
 * <p>Not thread-safe: use one merger per thread (e.g. per Flink subtask).
 */
public final class TruncatedStackMerger {
    private final int matchThreshold;
    private final MergeStats stats = new MergeStats();
    private MethodNodeIndex cachedIndex;
    private int[] candidates = new int[16];
    private int[] childCandidates = new int[16];
    private int lastLeaf = Cct.NONE;

    /**
     * @param matchThreshold a merge needs a unique candidate after <em>more than</em> this many
     *     frames matched ({@code depth > matchThreshold} in Listing 3.2); 0 merges on the first
     *     unique match, as in the thesis's Figure 3.5 example. Higher is safer but merges less.
     */
    public TruncatedStackMerger(int matchThreshold) {
        if (matchThreshold < 0) {
            throw new IllegalArgumentException("matchThreshold must be >= 0: " + matchThreshold);
        }
        this.matchThreshold = matchThreshold;
    }

    public int matchThreshold() {
        return matchThreshold;
    }

    /** Outcome counts of every attempt made by this merger. */
    public MergeStats stats() {
        return stats;
    }

    /**
     * Tries to merge one truncated stack into {@code tree}. The merger keeps a {@link
     * MethodNodeIndex} for the last tree it was given and rebuilds it, O(tree size), when given
     * another tree; a caller that alternates between trees (keyed state) should keep one index
     * per tree and call {@link #tryMerge(MethodNodeIndex, long[], int[], int, long)}.
     *
     * @param methods method ids, outermost known frame first; only the first {@code depth} are read
     * @param lines call-site line of each frame; {@code lines[0]} is ignored (its caller is missing)
     * @param depth number of known frames, at least 1
     * @param count samples of this stack
     */
    public MergeResult tryMerge(Cct tree, long[] methods, int[] lines, int depth, long count) {
        if (cachedIndex == null || cachedIndex.tree() != tree) {
            cachedIndex = new MethodNodeIndex(tree);
        }
        return tryMerge(cachedIndex, methods, lines, depth, count);
    }

    /** As {@link #tryMerge(Cct, long[], int[], int, long)}, into {@code index.tree()}. */
    public MergeResult tryMerge(MethodNodeIndex index, long[] methods, int[] lines, int depth, long count) {
        if (depth < 1 || depth > methods.length || depth > lines.length) {
            throw new IllegalArgumentException("truncated stack depth must be in 1.." + Math.min(methods.length,
                    lines.length) + ": " + depth);
        }
        index.catchUp();
        lastLeaf = Cct.NONE;
        MergeResult result = merge(index, methods, lines, depth, count);
        stats.record(result, count);
        return result;
    }

    private MergeResult merge(MethodNodeIndex index, long[] methods, int[] lines, int depth, long count) {
        Cct tree = index.tree();
        int size = 0;
        for (int n = index.first(methods[0]); n >= 0; n = index.next(n)) {
            candidates = ensure(candidates, size + 1);
            candidates[size++] = n;
        }
        int matched = 1; // candidates match frames [0, matched)
        while (true) {
            if (size == 0) {
                return MergeResult.NO_CANDIDATE;
            }
            if (size == 1 && matched > matchThreshold) {
                addBelow(tree, candidates[0], methods, lines, matched, depth, count);
                return MergeResult.MERGED;
            }
            if (matched == depth) {
                return MergeResult.AMBIGUOUS;
            }
            long method = methods[matched];
            int line = lines[matched];
            childCandidates = ensure(childCandidates, size);
            int childSize = 0;
            for (int i = 0; i < size; i++) {
                int child = existingChild(tree, candidates[i], method, line);
                if (child >= 0) {
                    childCandidates[childSize++] = child;
                }
            }
            int[] swap = candidates;
            candidates = childCandidates;
            childCandidates = swap;
            size = childSize;
            matched++;
        }
    }

    /** The child of {@code parent} for (method, line) if the tree has it, else -1; never creates. */
    private static int existingChild(Cct tree, int parent, long method, int line) {
        int child = tree.indexOf(NodeId.child(tree.id(parent), method, line));
        // an id collision could hand back some other node: accept only the true child
        if (child >= 0 && tree.parent(child) == parent && tree.method(child) == method
                && tree.callSiteLine(child) == line) {
            return child;
        }
        return -1;
    }

    /**
     * The leaf node of the stack the last attempt merged, in that attempt's tree: the path from the
     * root to it is the stack as completed. {@link Cct#NONE} when the last attempt did not merge.
     */
    public int lastLeaf() {
        return lastLeaf;
    }

    /** Charges {@code count} as if root..anchor + frames [from, depth) had been sampled. */
    private void addBelow(Cct tree, int anchor, long[] methods, int[] lines, int from, int depth, long count) {
        for (int a = anchor; a != Cct.NONE; a = tree.parent(a)) {
            tree.addCounts(a, 0, count);
        }
        int node = anchor;
        for (int i = from; i < depth; i++) {
            node = tree.child(node, methods[i], lines[i]);
            tree.addCounts(node, 0, count);
        }
        tree.addCounts(node, count, 0);
        lastLeaf = node;
    }

    private static int[] ensure(int[] buffer, int needed) {
        return needed <= buffer.length ? buffer : Arrays.copyOf(buffer, Math.max(needed, buffer.length * 2));
    }
}
