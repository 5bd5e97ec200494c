/**
 * Method metrics of seed 002 Sect. 3.3.2-3.3.3 on a {@link io.cctflow.core.Cct}, each as raw
 * sample counts (numerator and denominator) with the share derived from them. Every metric is
 * computed within a {@link io.cctflow.core.metrics.Scope}: the whole tree, the subtrees of
 * selected tasks (Eq. 3.23-3.25) or the subtrees of a method marked as dynamic task root (Sect.
 * 5.3.2). Thread time (Eq. 3.16-3.22) needs per-thread counts, which {@code Cct} does not keep
 * yet, so it is not here.
 */
package io.cctflow.core.metrics;
