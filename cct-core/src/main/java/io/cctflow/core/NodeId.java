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
}
