/**
 * Cross-version profile migration (seed 001, ProfMig): when a new deployment starts and its tree
 * is still thin, the part of the previous deployment's profile that a code change does not affect
 * stands in for it until enough new samples arrive.
 *
 * <p>The three ProfMig stages (seed 001 Sect. 4.1, Figure 2) map to: <em>discrimination</em> =
 * {@link io.cctflow.core.migration.ImpactAnalysis} over the old tree plus the reusable/affected
 * split in {@link io.cctflow.core.migration.ProfileMigration}; <em>regeneration</em> = the new
 * deployment's own (partial) tree, which the continuous profiler collects anyway; <em>merging</em>
 * = {@link io.cctflow.core.migration.ProfileMigration#migrate}. The impact analyses are seed 001's
 * AG and BA plus AG_CALLER, AG that also marks every context under a changed caller.
 *
 * <p>A run is judged with the seed 001 Sect. 5 metrics against the real new profile, all in one
 * {@link io.cctflow.core.migration.MigrationReport}: Acc, precision, recall and F-measure in
 * {@link io.cctflow.core.migration.MigrationQuality}, time saved (TS, measured or estimated from
 * samples) in {@link io.cctflow.core.migration.TimeSaved}.
 */
package io.cctflow.core.migration;
