package io.cctflow.core;

/**
 * Identity of a CCT node: a pure function of its path from the root, so every instance, every
 * Flink subtask and every replay computes the same id with no coordination (the path-hash idea
 * of probabilistic calling context, seed 004 Sect. 7). The parent id is stored with every node,
 * which keeps each path decodable; two different (parent, method, line) triples that hash to the
 * same id are a collision, which {@link Cct} detects and counts.
 */
public final class NodeId {
    /** The id of the virtual root above all thread roots. */
    public static final long ROOT = 0x6363_7466_6c6f_7700L;

    private NodeId() {
    }

    /**
     * The id of the child of {@code parentId} that calls {@code methodId} from {@code callSiteLine}
     * of the parent frame.
     */
    public static long child(long parentId, long methodId, int callSiteLine) {
        long h = Hashing.fmix64(parentId * 0x9E37_79B9_7F4A_7C15L + methodId);
        h = Hashing.fmix64(h ^ (callSiteLine * 0xC2B2_AE3D_27D4_EB4FL + 0x1656_67B1_9E37_79F9L));
        // never hand out the root id to a real node
        return h == ROOT ? ROOT + 1 : h;
    }

    /**
     * The id of each stack's leaf's parent: for stack {@code s}, {@link #child} folded from {@link
     * #ROOT} over all its frames but the last ({@link #ROOT} itself for a stack of one frame or none).
     * Stack {@code s}'s frames are {@code [starts[s], starts[s + 1])} of {@code frames} (indexes into
     * {@code methodIds}) and {@code lines}. What {@link Cct#leaf} computes for one stack, for a batch:
     * four stacks at a time, since each id is a chain of multiplications that waits on the one
     * before, and four independent chains keep the multiplier busy where one leaves it idle.
     *
     * @param out receives the ids, {@code out[s]} for {@code s < stacks}
     */
    public static void leafParents(int[] frames, int[] lines, long[] methodIds, int[] starts, int stacks, long[] out) {
        final int lanes = 4;
        long[] id = new long[lanes];
        int[] stack = new int[lanes];
        int[] at = new int[lanes];
        int[] end = new int[lanes];
        int next = 0;
        int busy = 0;
        for (int l = 0; l < lanes; l++) {
            stack[l] = -1;
        }
        while (true) {
            for (int l = 0; l < lanes; l++) {
                // a lane whose stack is done hands its id over and takes the next stack
                while (at[l] >= end[l]) {
                    if (stack[l] >= 0) {
                        out[stack[l]] = id[l];
                        stack[l] = -1;
                        busy--;
                    }
                    if (next == stacks) {
                        break;
                    }
                    stack[l] = next;
                    at[l] = starts[next];
                    end[l] = Math.max(starts[next], starts[next + 1] - 1); // all frames but the leaf
                    id[l] = ROOT;
                    next++;
                    busy++;
                }
                if (at[l] < end[l]) {
                    int f = at[l]++;
                    id[l] = child(id[l], methodIds[frames[f]], lines[f]);
                }
            }
            if (busy == 0 && next == stacks) {
                return;
            }
        }
    }
}
