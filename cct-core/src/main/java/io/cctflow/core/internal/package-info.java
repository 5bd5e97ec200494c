/**
 * cct-core's own helpers (sorted columns, key orders, sums). Not API: no other module imports
 * this package; what they need is public in {@link io.cctflow.core} and its named packages.
 */
package io.cctflow.core.internal;
