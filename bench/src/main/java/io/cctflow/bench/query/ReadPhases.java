package io.cctflow.bench.query;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.RangePlanner;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.WindowCounts;
import java.util.Arrays;
import java.util.List;
import org.neo4j.driver.Driver;

/**
 * Where the time of loading one side's tree goes, measured in-process with the graph store's own
 * classes against the same database (no HTTP): reading the windows, summing them, reading the
 * topology with no cache, rebuilding the tree. Diagnostics for the report, not goals.
 */
final class ReadPhases {
    private ReadPhases() {
    }

    /** {@code rounds} rounds of loading v1 of the synthetic deployments and up to a day of the fleet; one line per round. */
    static String measure(Driver driver, Dataset dataset, int rounds) {
        StringBuilder out = new StringBuilder();
        CatalogueReader catalogue = new CatalogueReader(driver, "");
        Uncached uncached = new Uncached(new WindowReader(driver, "", 0L), new TopologyReader(driver, "", 0));
        List<String> v1 = List.of(new ExecutionId(SyntheticDeployments.SERVICE, "v1", SyntheticDeployments.INSTANCE).key());
        List<String> fleet = catalogue.instances(FleetDataset.SERVICE).stream().map(i -> i.executionId().key()).toList();
        long to = dataset.toMillis() - 13 * 60_000L;
        int hours = Math.max(1, Math.min(24, dataset.hours() - 1));
        for (int round = 0; round < rounds; round++) {
            out.append(String.format("- round %d: v1 of %s: %s; fleet, %d h: %s%n", round + 1,
                    SyntheticDeployments.SERVICE, phases(uncached, v1, 0, Long.MAX_VALUE), hours,
                    phases(uncached, fleet, to - hours * 3_600_000L, to)));
        }
        return out.toString();
    }

    /** Readers without caches: every read goes to Neo4j. */
    private record Uncached(WindowReader windows, TopologyReader topology) {
    }

    private static String phases(Uncached reader, List<String> keys, long from, long to) {
        long tp = System.nanoTime();
        RangePlanner.Plan plan = reader.windows().plan(keys, from, to);
        long t0 = System.nanoTime();
        List<WindowCounts> windows = plan.read();
        long t1 = System.nanoTime();
        TreeCounts sum = WindowReader.sum(windows);
        long t2 = System.nanoTime();
        List<Long> ids = Arrays.stream(sum.nodeIds()).boxed().toList();
        int nodes = reader.topology().nodes(ids).size();
        long t3 = System.nanoTime();
        Cct tree = reader.topology().rebuild(sum); // reads the topology again: the cache is off
        long t4 = System.nanoTime();
        long entries = windows.stream().mapToLong(w -> w.counts().nodeIds().length).sum();
        return String.format("planned in %.0f ms (%,d roll-ups, %,d fine); %,d windows (%,d node entries) read in"
                        + " %.0f ms, summed in %.0f ms; %,d node records read in %.0f ms; rebuild (topology read"
                        + " again) %.0f ms, %,d nodes", (t0 - tp) / 1e6, plan.rollups().size(),
                plan.windowCount() - plan.rollups().size(), windows.size(), entries,
                (t1 - t0) / 1e6, (t2 - t1) / 1e6, nodes, (t3 - t2) / 1e6, (t4 - t3) / 1e6, tree.size() - 1);
    }
}
