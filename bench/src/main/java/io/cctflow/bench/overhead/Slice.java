package io.cctflow.bench.overhead;

/**
 * What one child did while it was thawed for one slice: operations completed, wall time thawed,
 * CPU time by {@link ThreadCpu.Kind} (indexed by ordinal; all zero where {@code /proc} has no
 * per-thread figures), and the CPU time the rest of the machine (not the benchmark's processes)
 * used meanwhile ({@link MachineCpu}). Immutable (the array is not copied: do not change it).
 */
record Slice(long ops, long wallNanos, long[] cpuByKind, long othersNanos) {
    /**
     * Whether the rest of the machine used less than {@code share} of its {@code cores} during the
     * slice: the child then had the cores to itself, so its wall-clock rate is not the scheduler's
     * share under contention.
     */
    boolean quiet(double share, int cores) {
        return othersNanos < share * cores * wallNanos;
    }

    /** CPU time of one kind of thread in the slice. */
    long cpuNanos(ThreadCpu.Kind kind) {
        return cpuByKind[kind.ordinal()];
    }

    /** CPU time of all the child's threads in the slice. */
    long cpuNanos() {
        return ThreadCpu.total(cpuByKind);
    }

    /** The three rates the report compares, each as operations over a denominator. */
    enum Rate {
        /** Operations per second of wall time thawed: what the goals are about. */
        WALL("ops per wall second"),
        /** Operations per second of the whole process's CPU time (workers, agent, JFR, GC, JIT). */
        CPU("ops per CPU second"),
        /** Operations per second of the worker threads' own CPU time (costs inside the workers). */
        WORKER_CPU("ops per worker CPU second");

        final String label;

        Rate(String label) {
            this.label = label;
        }

        /** The denominator of this rate for {@code s}, in nanoseconds. */
        long denominator(Slice s) {
            return switch (this) {
                case WALL -> s.wallNanos();
                case CPU -> s.cpuNanos();
                case WORKER_CPU -> s.cpuNanos(ThreadCpu.Kind.WORKERS);
            };
        }

        /** Operations per second of this rate's denominator. */
        double of(Slice s) {
            return s.ops() * 1e9 / denominator(s);
        }
    }
}
