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
 * run without it has a known answer.
 */
public final class DemoWorkload {
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
        int threads = 3;
        ExecutorService pool = Executors.newFixedThreadPool(threads, new java.util.concurrent.ThreadFactory() {
            private int n;

            @Override
            public synchronized Thread newThread(Runnable r) {
                Thread t = new Thread(r, "shop-worker-" + (++n));
                t.setDaemon(true);
                return t;
            }
        });
        long end = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
        Thread input = new Thread(DemoWorkload::awaitEndOfInput, "shop-input");
        input.setDaemon(true);
        input.start();
        for (int i = 0; i < threads; i++) {
            int seed = i;
            pool.execute(() -> {
                Shop shop = new Shop(seed, slowdown);
                while (!inputEnded && System.nanoTime() < end) {
                    shop.handleRequest();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(duration == null ? Long.MAX_VALUE : duration.toMillis() + 5_000, TimeUnit.MILLISECONDS);
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
