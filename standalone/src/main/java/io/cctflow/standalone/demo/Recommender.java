package io.cctflow.standalone.demo;

/** Tree recursion, so the CCT has recursive paths of varying depth. */
final class Recommender {
    private Recommender() {
    }

    static long score(int n) {
        return n < 2 ? n : score(n - 1) + score(n - 2);
    }
}
