package io.cctflow.standalone.demo;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A small "shop" for the demo: a pool of request threads, each request pricing a cart (arithmetic),
 * checking inventory (hash maps), scoring recommendations (tree recursion) and rendering a
 * response (string building). Several distinct hot paths, recursion, and thread names that
 * normalise to one pool ({@code shop-worker-#}). Runs for the duration given as the first argument
 * (e.g. {@code 60s}; {@code 0} for no limit), or until its standard input ends (the standalone
 * command holds it open, so the demo ends with that command; a test closes it once it has enough
 * samples), or until killed. The optional second argument is a planted regression: the extra work
 * {@code Shop.priceCart} does per item (e.g. {@code 0.10} for 10 % more), so a comparison with a
 * run without it has a known answer. The optional third is the number of request threads
 * (default {@value #DEFAULT_THREADS}; the demo runs several JVMs of one thread each).
 */
public final class DemoWorkload {
    /** Request threads when the third argument is absent. */
    static final int DEFAULT_THREADS = 3;
    private static volatile long sink; // keeps the JIT from removing the work
    private static volatile boolean inputEnded;

    private DemoWorkload() {
    }

    static void consume(long value) {
        sink += value;
    }

    public static void main(String[] args) throws InterruptedException {
        long seconds = args.length > 0 ? Long.parseLong(args[0].replace("s", "")) : 0;
        Duration duration = seconds > 0 ? Duration.ofSeconds(seconds) : null;
        double slowdown = args.length > 1 ? Double.parseDouble(args[1]) : 0;
        if (!(slowdown >= 0 && slowdown <= 10)) {
            throw new IllegalArgumentException("slowdown (second argument) must be from 0 to 10, got " + args[1]);
        }
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : DEFAULT_THREADS;
        if (threads < 1 || threads > 64) {
            throw new IllegalArgumentException("threads (third argument) must be from 1 to 64, got " + args[2]);
        }
        // No lambda, method reference or string concatenation on this thread: their first use links
        // invokedynamic call sites, start-up work in the main thread that JFR (starting on the
        // agent's thread at the same time) may catch in one JVM and not in another. One run of
        // DemoComparisonTest had 0.6 % of one side's samples outside the request threads, which
        // alone made methods on every request stack (Thread.run) differ significantly; this is the
        // likeliest source (not confirmed). The main thread now only starts threads and waits.
        ExecutorService pool = Executors.newFixedThreadPool(threads, new WorkerThreads());
        long end = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
        Thread input = new Thread(new InputWatcher(), "shop-input");
        input.setDaemon(true);
        input.start();
        for (int i = 0; i < threads; i++) {
            pool.execute(new Requests(i, slowdown, end));
        }
        pool.shutdown();
        pool.awaitTermination(duration == null ? Long.MAX_VALUE : duration.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    }

    /** Request threads named {@code shop-worker-N}, daemons. */
    private static final class WorkerThreads implements java.util.concurrent.ThreadFactory {
        private int n;

        @Override
        public synchronized Thread newThread(Runnable r) {
            Thread t = new Thread(r, "shop-worker-".concat(Integer.toString(++n)));
            t.setDaemon(true);
            return t;
        }
    }

    /** One request thread's loop: a shop of its own, requests until the input ends or time is up. */
    private static final class Requests implements Runnable {
        private final int seed;
        private final double slowdown;
        private final long end;

        Requests(int seed, double slowdown, long end) {
            this.seed = seed;
            this.slowdown = slowdown;
            this.end = end;
        }

        @Override
        public void run() {
            Shop shop = new Shop(seed, slowdown);
            while (!inputEnded && System.nanoTime() < end) {
                shop.handleRequest();
            }
        }
    }

    /** Waits for the end of standard input on a thread of its own. */
    private static final class InputWatcher implements Runnable {
        @Override
        public void run() {
            awaitEndOfInput();
        }
    }

    /** Blocks until standard input ends (or fails), then tells the workers to stop. */
    private static void awaitEndOfInput() {
        try {
            while (System.in.read() != -1) {
                // the input carries nothing; only its end matters
            }
        } catch (IOException e) {
            // a broken input is an ended one
        }
        inputEnded = true;
    }
}
