/**
 * Method metrics of seed 002 Sect. 3.3.2-3.3.3 on a {@link io.cctflow.core.Cct}, each as raw
 * sample counts (numerator and denominator) with the share derived from them. Every metric is
 * computed within a {@link io.cctflow.core.metrics.Scope}: the whole tree, the subtrees of
 * selected tasks (Eq. 3.23-3.25) or the subtrees of a method marked as dynamic task root (Sect.
 * 5.3.2). {@link io.cctflow.core.metrics.MethodMetrics} computes all of them for one method:
 * method and self time (Eq. 3.3-3.7), callee time (Eq. 3.8-3.12), caller time (Eq. 3.13-3.15) and
 * thread time (Eq. 3.16-3.22).
 */
package io.cctflow.core.metrics;
