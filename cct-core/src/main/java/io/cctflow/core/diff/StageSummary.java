package io.cctflow.core.diff;

/** Subtrees and nodes removed by one stage from each tree (seed 000 Table 4). */
public record StageSummary(Stage stage, int subtreesFirst, int nodesFirst, int subtreesSecond, int nodesSecond) {}
