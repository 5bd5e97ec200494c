package io.cctflow.bench.overhead;

import java.util.List;
import java.util.Map;

/**
 * One round's measurements: its measured cycles (each a {@link Slice} per setup, indexed by
 * ordinal, {@code null} for setups not run) and what each child reported at its end. Immutable
 * once built (the lists and arrays are not copied).
 *
 * @param number      1-based
 * @param cycles      measured cycles in the order they ran (with {@link Setup#JFR_20_ATTACHED}: after the
 *                    agent was attached)
 * @param beforeAttach with {@link Setup#JFR_20_ATTACHED}: the measured cycles before the agent was
 *                    attached; otherwise empty
 * @param ends        per setup run
 * @param loadAverage {@code /proc/loadavg} when the round ended
 */
record Round(int number, List<Slice[]> cycles, List<Slice[]> beforeAttach, Map<Setup, ChildEnd> ends,
        String loadAverage) {

    /**
     * What a child reported besides its slices.
     *
     * @param awaitMillis      from its start of work until JFR ran (0 without JFR to wait for)
     * @param heapAfterGcBytes used heap after two {@code System.gc()} at its end
     * @param rssBytes         its resident set at its end
     * @param agentWarnings    {@code [cctflow-agent] WARN} lines in its stderr
     */
    record ChildEnd(long awaitMillis, long heapAfterGcBytes, long rssBytes, int agentWarnings) {
    }
}
