package io.cctflow.core.truncated;

/**
 * Counts of merge attempts and of their samples, per {@link MergeResult}. A stack retried after
 * {@link MergeResult#NO_CANDIDATE} is counted once per attempt.
 *
 * <p>Not thread-safe; owned by one {@link TruncatedStackMerger}.
 */
public final class MergeStats {
    private final long[] stacks = new long[MergeResult.values().length];
    private final long[] samples = new long[MergeResult.values().length];

    void record(MergeResult result, long count) {
        stacks[result.ordinal()]++;
        samples[result.ordinal()] += count;
    }

    /** Attempts that ended with {@code result}. */
    public long stacks(MergeResult result) {
        return stacks[result.ordinal()];
    }

    /** Sum of the sample counts of the attempts that ended with {@code result}. */
    public long samples(MergeResult result) {
        return samples[result.ordinal()];
    }

    public long merged() {
        return stacks(MergeResult.MERGED);
    }

    public long noCandidate() {
        return stacks(MergeResult.NO_CANDIDATE);
    }

    public long ambiguous() {
        return stacks(MergeResult.AMBIGUOUS);
    }

    /** All attempts. */
    public long attempts() {
        long sum = 0;
        for (long s : stacks) {
            sum += s;
        }
        return sum;
    }

    @Override
    public String toString() {
        return "MergeStats{merged=" + merged() + ", noCandidate=" + noCandidate() + ", ambiguous="
                + ambiguous() + "}";
    }
}
