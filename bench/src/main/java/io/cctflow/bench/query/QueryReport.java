package io.cctflow.bench.query;

import java.time.Instant;
import java.util.List;

/** The Markdown report of a {@link QueryBenchmark} run: the dataset, then one row per figure with its goal. */
final class QueryReport {
    private QueryReport() {
    }

    static String format(Dataset d, List<Timing> timings, String loadBefore, String loadAfter, String machine,
            String phases) {
        StringBuilder out = new StringBuilder();
        out.append("# Query figures (issue 6), ").append(Instant.now()).append("\n\n");
        out.append(String.format("Dataset: %d instances in %d deployment(s) x %d h of the bench stack corpus (Maven 3.8.7 building"
                        + " three modules, recorded with JFR), %d-s windows, %d samples per instance and window:"
                        + " %,d fine windows (mean %,.0f stored rows each) and %,d roll-ups made by the graph"
                        + " store's `Rollups`, %s to %s; %,d topology nodes. Written through `GraphWriter` in %.0f s"
                        + " (windows) + %.0f s (roll-ups).%n%n",
                d.instances(), d.deployments(), d.hours(), d.windowMillis() / 1000, d.samplesPerWindow(), d.fineWindows(),
                d.meanWindowNodes(), d.rollupWindows(), Instant.ofEpochMilli(d.fromMillis()),
                Instant.ofEpochMilli(d.toMillis()), d.topologyNodes(), d.windowWriteSeconds(), d.rollupSeconds()));
        out.append(String.format("Tree and compare: two synthetic deployments of the same store (the corpus has"
                + " only %,d nodes), made of corpus copies below synthetic frames: v1 %,d nodes (%,d below"
                + " `%s`), v2 %,d nodes (counts ±20 %%, 2 %% of the stacks with one frame replaced, 0.5 %% through"
                + " a new method).%n%n", d.topologyNodes(), d.diffNodesA(), d.treeNodes(),
                SyntheticDeployments.TREE_METHOD, d.diffNodesB()));
        out.append("Calls are timed by an HTTP client in the same JVM as the query service and the embedded Neo4j"
                + " (request sent to body read). Machine: shared with other work; ").append(loadBefore)
                .append(" before, ").append(loadAfter).append(" after the timed calls; ").append(machine)
                .append(".\n\n");
        out.append("| figure | measured | goal | met |\n|---|---|---|---|\n");
        for (Timing t : timings) {
            out.append("| ").append(t.what()).append(" (").append(t.detail()).append(") | ").append(t.summary())
                    .append(" | ").append(t.goal()).append(" | ").append(t.met() ? "yes" : "no").append(" |\n");
        }
        out.append(String.format("| Neo4j store per instance-day (store directory after the fleet dataset and its"
                        + " roll-ups, Neo4j shut down: %.1f MiB / (%d x %d h / 24); transaction logs apart: %.1f MiB) | %.1f MiB"
                        + " | — | — |%n", d.storeBytes() / 1048576.0, d.instances(), d.hours(),
                d.transactionLogBytes() / 1048576.0, d.storeBytesPerInstanceDay() / 1048576.0));
        out.append("\nWhere loading a tree goes, in-process with the graph store's classes (`WindowReader`, `TopologyReader`),"
                + " no topology or window cache, after the timed calls:\n\n").append(phases);
        return out.toString();
    }
}
