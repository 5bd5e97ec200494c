/**
 * Calling context trees (CCTs) and the algorithms on them. Pure Java, no I/O: the Flink jobs,
 * the graph store and the query service all call this package, so every number a user sees is
 * computed by one piece of code.
 */
package io.cctflow.core;
