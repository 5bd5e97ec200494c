/**
 * Primitive collections for hot paths (no boxing, no allocation per lookup), public for every
 * module that keys by {@code long} ids: the CCT merge, the samples job's dictionaries.
 */
package io.cctflow.core.collect;
