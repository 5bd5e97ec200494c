package io.cctflow.standalone.e2e;

/**
 * A workload whose split is known by construction, with a plantable slowdown: each of two worker
 * threads runs {@link A#work}, {@link B#work}, {@link C#work} and {@link D#work} in turn, each for
 * {@value #SLICE_NANOS} ns of its own CPU time, so each holds a quarter of the workers' CPU. The
 * second argument is the planted slowdown of {@code A.work} (e.g. {@code 1.0}: its slice is twice
 * as long), which makes its share 2 / 5 and each other's 1/5. All four spend their time in
 * {@link SplitWorkload.Fib#fib} (same body: JFR's sampling bias is the same for all, see
 * {@link SplitWorkload}).
 *
 * <p>Arguments: minimum seconds, slowdown of {@code A.work}. Runs for at least those seconds and
 * then until its standard input ends, as {@link SplitWorkload} does.
 */
public final class FourWayWorkload {
    /**
     * CPU time of one slice of each method in the release without the slowdown. Short against the
     * sampling period, so that consecutive samples of a thread seldom fall in one slice: JFR samples
     * in wall time, and on a loaded machine a 10 ms slice lasts tens of milliseconds. At 10 ms,
     * three runs at once at 2 ms sampling beside 4 busy threads (2 cores) gave 1.7-2.4 samples per
     * run of one method in a thread's samples; at 1 ms, 1.3 (JFR files read directly, 2026-11-30).
     * Runs of samples are what makes windows scatter beyond binomial sampling.
     */
    static final long SLICE_NANOS = 1_000_000L;
    private static volatile boolean stopRequested;

    private FourWayWorkload() {
    }

    public static void main(String[] args) throws Exception {
        long minimumEnd = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        double slowdown = Double.parseDouble(args[1]);
        long sliceOfA = Math.round(SLICE_NANOS * (1 + slowdown));
        Thread[] workers = new Thread[2];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new Thread(() -> {
                while (!stopRequested || System.nanoTime() < minimumEnd) {
                    A.work(sliceOfA);
                    B.work(SLICE_NANOS);
                    C.work(SLICE_NANOS);
                    D.work(SLICE_NANOS);
                }
            }, "worker-" + i);
            workers[i].start();
        }
        while (System.in.read() != -1) {
            // the input carries nothing; only its end matters
        }
        stopRequested = true;
        for (Thread t : workers) {
            t.join();
        }
    }

    /** Spends {@code cpuNanos} of this thread's CPU in recursion. */
    static void spend(long cpuNanos) {
        long until = SplitWorkload.cpuNow() + cpuNanos;
        while (SplitWorkload.cpuNow() < until) {
            SplitWorkload.sink += SplitWorkload.Fib.fib(18);
        }
    }

    /** The method the variant slows down. */
    public static final class A {
        private A() {
        }

        public static void work(long cpuNanos) {
            spend(cpuNanos);
        }
    }

    public static final class B {
        private B() {
        }

        public static void work(long cpuNanos) {
            spend(cpuNanos);
        }
    }

    public static final class C {
        private C() {
        }

        public static void work(long cpuNanos) {
            spend(cpuNanos);
        }
    }

    public static final class D {
        private D() {
        }

        public static void work(long cpuNanos) {
            spend(cpuNanos);
        }
    }
}
