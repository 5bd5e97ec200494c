package io.cctflow.core.diff;

/**
 * One excised subtree with its attribution (seed 000 Sect. 3.5).
 *
 * @param stage the stage that found it
 * @param inSecond true if the subtree is in the second (new) tree, false for the first (old)
 * @param root subtree root, a node index of that tree
 * @param method method id of the root
 * @param nodes nodes removed with it (those not already removed by an earlier stage)
 * @param suspects node indexes (same tree) most likely holding the cause, most likely first:
 *     ADDED/DELETED the caller (parent); MODIFIED the modified ancestors from the closest upwards;
 *     SIDE_EFFECT the caller, as context
 * @param suspectMethods method ids of {@code suspects}
 */
public record Difference(
        Stage stage, boolean inSecond, int root, long method, int nodes, int[] suspects, long[] suspectMethods) {}
