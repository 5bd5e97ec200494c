package io.cctflow.standalone.demo;

/**
 * Tree recursion, so the CCT has recursive paths of varying depth. Each call mixes its seed in a
 * loop before it recurses: the time is spent in loop bodies, not in the calls themselves. A
 * recursion of tiny calls (a naive Fibonacci) lost a share of its samples that differed from JVM
 * to JVM (JFR's stack walk fails more often in call prologues, and how many levels the JIT inlines
 * varies), which made {@code score} a significant "improvement" between two runs of the same code.
 */
final class Recommender {
    private static final int MIX_ROUNDS = 200;

    private Recommender() {
    }

    /** Scores a binary tree of recommendations {@code depth} levels deep. */
    static long score(int depth, long seed) {
        long s = seed;
        for (int i = 0; i < MIX_ROUNDS; i++) {
            s = (s ^ (s >>> 29)) * 0xBF58476D1CE4E5B9L + i;
        }
        if (depth == 0) {
            return s;
        }
        return score(depth - 1, s) + score(depth - 1, s ^ 0x5DEECE66DL);
    }
}
