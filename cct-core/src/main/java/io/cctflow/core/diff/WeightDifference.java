package io.cctflow.core.diff;

/**
 * One matched pair whose share of the weight changed (seed 000 Sect. 3.4), reported with its
 * context (the node indexes; Sect. 3.5).
 *
 * @param nodeFirst node in the first (old) tree
 * @param nodeSecond its partner in the second (new) tree
 * @param method method id of both
 * @param pweightFirst share of the first tree's common-tree weight
 * @param pweightSecond share of the second tree's common-tree weight
 * @param overlapAfter overlap once this pair and every higher-ranked one are adjusted
 */
public record WeightDifference(
        int nodeFirst, int nodeSecond, long method, double pweightFirst, double pweightSecond, double overlapAfter) {

    /** pweightSecond - pweightFirst: positive when the node's share grew. */
    public double delta() {
        return pweightSecond - pweightFirst;
    }
}
