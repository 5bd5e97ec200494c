package io.cctflow.flink.cct;

/**
 * Names what a batch contributes to its window, so the graph adds it once however often it is
 * sent ({@code GraphWriter.addContributions}): a batch by its run (pid, start time) and sequence
 * number, which the agent and {@code collector import} give every batch; a truncated stack of it,
 * merged or expired later, by the batch and the stack's place among the batch's truncated stacks.
 * The same batch gets the same ids in every run of the job, with or without state. 64-bit hashes:
 * the chance that two of a window's contributions share one is below 10^-15 for a thousand.
 * Stateless and thread-safe.
 */
public final class ContributionIds {
    private ContributionIds() {
    }

    /** The id of a batch's own counts. */
    public static long ofBatch(long runStartMillis, long pid, long sequence) {
        return mix(mix(mix(0x6261746368L, runStartMillis), pid), sequence);
    }

    /** The id of the later outcome (merged or expired) of the {@code index}-th truncated stack of batch {@code batchId}. */
    public static long ofTruncatedStack(long batchId, int index) {
        return mix(mix(0x737461636bL, batchId), index);
    }

    /** One step of SplitMix64 over the running hash and the next value. */
    private static long mix(long h, long v) {
        long z = h * 0x9E3779B97F4A7C15L + v;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
