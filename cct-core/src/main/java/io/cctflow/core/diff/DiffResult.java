package io.cctflow.core.diff;

import java.util.List;

/**
 * Result of {@link TreeDiff#compare}.
 *
 * @param common the common tree left after every topological difference is excised
 * @param commonTreeSize matched pairs (virtual root not counted)
 * @param overlapSelf overlap under {@link Weight#SELF}
 * @param overlapTotal overlap under {@link Weight#TOTAL}
 * @param score Sect. 5.2 matching score over both overlaps, in percent
 * @param stages one summary per {@link Stage}, in stage order
 * @param differences every excised subtree, stage order, first tree before second, index order
 * @param weightDifferences significant weight differences, largest first
 */
public record DiffResult(
        CommonTree common,
        int commonTreeSize,
        double overlapSelf,
        double overlapTotal,
        double score,
        List<StageSummary> stages,
        List<Difference> differences,
        List<WeightDifference> weightDifferences) {

    public StageSummary stage(Stage stage) {
        return stages.get(stage.ordinal());
    }
}
