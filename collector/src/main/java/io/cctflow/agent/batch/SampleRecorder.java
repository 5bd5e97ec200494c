package io.cctflow.agent.batch;

/**
 * Receives one stack sample at a time from the sampler.
 *
 * <p>Ownership: the arrays belong to the caller, who reuses them after the call returns; an
 * implementation must copy what it keeps. Only the first {@code depth} entries are meaningful.
 */
public interface SampleRecorder {
    /**
     * Records one sample.
     *
     * @param frames the stack's methods, root (outermost) frame first
     * @param lines for each frame, its call-site line: the line the parent frame was executing;
     *     0 for the root frame and where unknown
     * @param depth number of valid entries in {@code frames} and {@code lines}, at least 1
     * @param thread normalised thread name, never null
     * @param truncated whether JFR cut the stack at its depth limit
     */
    void record(MethodId[] frames, int[] lines, int depth, String thread, boolean truncated);

    /**
     * Records one sample whose thread's raw (un-normalised) name is known, e.g. {@code
     * pool-3-thread-17} for {@code thread} {@code pool-#-thread-#}. A recorder that keeps no raw
     * names records it as {@link #record(MethodId[], int[], int, String, boolean)} does.
     *
     * @param rawThread the thread's name as the application gave it, never null
     */
    default void record(MethodId[] frames, int[] lines, int depth, String thread, String rawThread, boolean truncated) {
        record(frames, lines, depth, thread, truncated);
    }
}
