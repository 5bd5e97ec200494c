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
     * Waits until every execution has samples and none of their numbers has changed for {@link
     * #QUIET}, i.e. the job has written everything the agents sent, and returns the trees in the
     * order of {@code executions}. The executions are watched together, so runs that ended long
     * before the last share its quiet period instead of each sitting out one of its own.
     *
     * @throws TimeoutException when that does not happen within {@code timeout}
     */
    List<Cct> awaitSettled(List<ExecutionId> executions, Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Long> last = List.of();
        long stableSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            List<Cct> trees = executions.stream().map(this::tree).toList();
            List<Long> samples = trees.stream().map(t -> t.total(Cct.ROOT)).toList();
            if (!samples.equals(last)) {
                last = samples;
                stableSince = System.nanoTime();
            } else if (samples.stream().allMatch(n -> n > 0) && System.nanoTime() - stableSince >= QUIET.toNanos()) {
                return trees;
            }
            Thread.sleep(POLL.toMillis()); // polling a remote store for a condition, with a deadline
        }
        throw new TimeoutException("the samples of " + executions + " did not settle within " + timeout
                + " (last counts " + last + "); see standalone.log in the data directory");
    }
}
