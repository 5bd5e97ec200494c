package io.cctflow.bench.pipeline;

import java.io.PrintStream;

/**
 * One measured scenario of the pipeline benchmark, run against the running pipeline after the
 * previous ones (so later phases see the graph earlier ones built: e.g. a new task definition over
 * the nodes {@link NewNodesPhase} created). Prints its figures as it goes.
 */
public interface Phase {
    String name();

    void run(EmbeddedPipeline pipeline, PrintStream out) throws Exception;
}
