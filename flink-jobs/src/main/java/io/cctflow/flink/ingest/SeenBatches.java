package io.cctflow.flink.ingest;

/**
 * Which batches of one execution were already seen, so a batch that arrives twice (the agent
 * resends one whose send timed out, a producer retries) is counted once.
 *
 * <p>A batch is named by its run (one JVM: pid and start time) and its sequence number, which the
 * agent numbers +1 from 0 in each run. Per run the state holds the highest sequence number seen and
 * a ring of {@value #WINDOW} bits, one per sequence number up to {@value #WINDOW} below it; so a
 * copy is recognised as long as fewer than {@value #WINDOW} newer batches of its run came first
 * (with the agent's 10 s flush interval, almost three hours). Up to {@value #RUNS} runs are tracked,
 * the newest by start time: the one running now and predecessors whose spilled batches may still
 * arrive. A batch of an older run, or too far below its run's highest number, cannot be checked
 * ({@link Verdict#UNCHECKED}): it is taken as new, and the graph's window writes, which know each
 * window's batches, still count it once there.
 *
 * <p>The state is a {@code long[]} of {@value #RUNS} slots of {@value #SLOT} longs ({@code
 * runStartMillis, pid, highest}, then the bits), about 600 bytes per execution, as Flink keeps it;
 * {@link #none} before the first batch. Stateless and thread-safe.
 */
public final class SeenBatches {
    /** Sequence numbers remembered per run below its highest. */
    public static final int WINDOW = 1024;
    /** Runs tracked per execution. */
    public static final int RUNS = 4;
    static final int SLOT = 3 + WINDOW / 64;

    /** What a batch is, given the batches seen before it. */
    public enum Verdict {
        /** Not seen before; now remembered. */
        NEW,
        /** Seen before: count it no more. */
        DUPLICATE,
        /** Too old to tell (its run or number is beyond what is remembered): taken as new. */
        UNCHECKED
    }

    private SeenBatches() {
    }

    /** The state before any batch. */
    public static long[] none() {
        long[] state = new long[RUNS * SLOT];
        for (int s = 0; s < RUNS; s++) {
            state[s * SLOT] = Long.MIN_VALUE; // an empty slot: older than every run
            state[s * SLOT + 2] = -1;
        }
        return state;
    }

    /** Checks batch {@code sequence} of run ({@code runStartMillis}, {@code pid}) and remembers it in {@code state}. */
    public static Verdict accept(long[] state, long runStartMillis, long pid, long sequence) {
        if (sequence < 0) {
            return Verdict.UNCHECKED;
        }
        int slot = slotOf(state, runStartMillis, pid);
        if (slot < 0) {
            slot = oldestSlot(state);
            if (state[slot] > runStartMillis) {
                return Verdict.UNCHECKED; // older than every run tracked
            }
            state[slot] = runStartMillis;
            state[slot + 1] = pid;
            state[slot + 2] = -1;
            java.util.Arrays.fill(state, slot + 3, slot + SLOT, 0L);
        }
        long highest = state[slot + 2];
        if (sequence > highest) {
            // forget the numbers the ring's positions held before: those WINDOW below the new highest
            long clearFrom = Math.max(highest + 1, sequence - WINDOW + 1);
            for (long s = clearFrom; s < sequence; s++) {
                clear(state, slot, s);
            }
            state[slot + 2] = sequence;
            set(state, slot, sequence);
            return Verdict.NEW;
        }
        if (sequence <= highest - WINDOW) {
            return Verdict.UNCHECKED;
        }
        if (isSet(state, slot, sequence)) {
            return Verdict.DUPLICATE;
        }
        set(state, slot, sequence);
        return Verdict.NEW;
    }

    private static int slotOf(long[] state, long runStartMillis, long pid) {
        for (int s = 0; s < state.length; s += SLOT) {
            if (state[s] == runStartMillis && state[s + 1] == pid && state[s + 2] >= 0) {
                return s;
            }
        }
        return -1;
    }

    private static int oldestSlot(long[] state) {
        int oldest = 0;
        for (int s = SLOT; s < state.length; s += SLOT) {
            if (state[s] < state[oldest]) {
                oldest = s;
            }
        }
        return oldest;
    }

    private static int word(int slot, long sequence) {
        return slot + 3 + (int) ((sequence % WINDOW) >>> 6);
    }

    private static boolean isSet(long[] state, int slot, long sequence) {
        return (state[word(slot, sequence)] & (1L << sequence)) != 0;
    }

    private static void set(long[] state, int slot, long sequence) {
        state[word(slot, sequence)] |= 1L << sequence;
    }

    private static void clear(long[] state, int slot, long sequence) {
        state[word(slot, sequence)] &= ~(1L << sequence);
    }
}
