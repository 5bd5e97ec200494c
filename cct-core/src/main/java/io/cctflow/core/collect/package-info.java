/**
 * Primitive collections for hot paths (no boxing, no allocation per lookup), public for every
 * module that keys by {@code long} ids: the CCT merge, the samples job's dictionaries; and a
 * least-recently-used map bounded by weight for the readers' caches ({@link
 * io.cctflow.core.collect.WeighedLru}).
 */
package io.cctflow.core.collect;
