/**
 * The byte-level building blocks of cctflow's own compact formats: a growing byte array of
 * unsigned LEB128 varints and fixed-width longs ({@link io.cctflow.core.encoding.ByteWriter}) and
 * its bounds-checked reader ({@link io.cctflow.core.encoding.ByteReader}), shared by the stored
 * windows ({@code io.cctflow.graph.PackedWindow}) and the samples job's keyed state of trees
 * ({@code io.cctflow.flink.state.StoredNodes}). Avro's own encoding is read and written by the
 * job's Avro classes, not here.
 */
package io.cctflow.core.encoding;
