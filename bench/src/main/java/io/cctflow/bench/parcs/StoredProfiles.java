package io.cctflow.bench.parcs;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.read.TopologyReader;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * The profiles the pipeline stored, read back through the graph store exactly as the query service
 * reads them.
 */
final class StoredProfiles {
    /** Polls this often while waiting for the pipeline to catch up. */
    private static final Duration POLL = Duration.ofSeconds(2);
    /** The count must stay the same this long (longer than the job's early firing and sink flush). */
    private static final Duration QUIET = Duration.ofSeconds(16);

    private final WindowReader windows;
    private final TopologyReader topology;

    StoredProfiles(WindowReader windows, TopologyReader topology) {
        this.windows = windows;
        this.topology = topology;
    }

    /** The whole stored tree of one execution. */
    Cct tree(ExecutionId execution) {
        return topology.rebuild(windows.plan(List.of(execution.key()), 0, Long.MAX_VALUE).sum());
    }

    /**
     * Waits until the execution has samples and their number has not changed for {@link #QUIET},
     * i.e. the job has written everything the agent sent, and returns the tree.
     *
     * @throws TimeoutException when that does not happen within {@code timeout}
     */
    Cct awaitSettled(ExecutionId execution, Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long last = -1;
        long stableSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            Cct tree = tree(execution);
            long samples = tree.total(Cct.ROOT);
            if (samples != last) {
                last = samples;
                stableSince = System.nanoTime();
            } else if (samples > 0 && System.nanoTime() - stableSince >= QUIET.toNanos()) {
                return tree;
            }
            Thread.sleep(POLL.toMillis()); // polling a remote store for a condition, with a deadline
        }
        throw new TimeoutException("the samples of " + execution + " did not settle within " + timeout
                + " (last count " + last + "); see standalone.log in the data directory");
    }
}
