package io.cctflow.flink.ingest;

/**
 * Lost-batch detection for one execution, on the sequence numbers of its batches.
 *
 * <p>An agent numbers its batches +1 from 0 in each run (one JVM: its pid and start time). An
 * execution whose {@code instance} is pinned (e.g. to a pod name) has one run after another, and
 * what an earlier run spilled to disk is sent first by the next, under the earlier run's identity.
 * So numbers are compared within a run only: the latest run seen is tracked; a newer run starts
 * afresh, its first batch counting no gap (the job may start reading in the middle of a run, and
 * {@code collector import} numbers on across the files of one instance, each with its own start
 * time); a batch of an older run (a straggler) is not checked and changes nothing.
 *
 * <p>The state is a {@code long[]} of {@value #LENGTH}, {@code {runStartMillis, pid, highest
 * sequence}}, as Flink keeps it; {@link #none} before the first batch. Stateless and thread-safe.
 */
public final class RunSequences {
    /** Length of a state array. */
    public static final int LENGTH = 3;

    private RunSequences() {
    }

    /** The state before any batch: every run is newer than it. */
    public static long[] none() {
        return new long[] {Long.MIN_VALUE, 0, -1};
    }

    /** The highest sequence number seen of the latest run; -1 before the first batch. */
    public static long highest(long[] state) {
        return state[2];
    }

    /**
     * Accounts for one batch of the run ({@code runStartMillis}, {@code pid}) and updates
     * {@code state} in place.
     *
     * @return the batches of the same run lost just before this one (numbers skipped over), else 0
     */
    public static long accept(long[] state, long runStartMillis, long pid, long sequence) {
        boolean sameRun = runStartMillis == state[0] && pid == state[1];
        if (!sameRun) {
            if (runStartMillis >= state[0]) { // newer, or another JVM started in the same millisecond
                state[0] = runStartMillis;
                state[1] = pid;
                state[2] = sequence;
            }
            return 0;
        }
        long gaps = sequence > state[2] + 1 ? sequence - state[2] - 1 : 0;
        state[2] = Math.max(state[2], sequence);
        return gaps;
    }
}
