/**
 * Merging truncated stacks (partial stack samples, PSS) into a calling context tree by maximal
 * common merging (seed 002 Sect. 3.2.3, Listing 3.2). Entry point: {@link
 * io.cctflow.core.truncated.TruncatedStackMerger}.
 */
package io.cctflow.core.truncated;
