package io.cctflow.core.diff.stats;

/**
 * One tested share of one method: its change, its Benjamini-Hochberg q-value across every share
 * compared, and the verdict at the comparison's level.
 *
 * @param qValue 1 for a share left out of the multiple-testing count (its smallest possible
 *     p-value is above the level: too few samples to ever be significant)
 * @param significant {@code qValue <= level}
 */
public record Measure(ShareChange change, double qValue, boolean significant, Change label) {
}
