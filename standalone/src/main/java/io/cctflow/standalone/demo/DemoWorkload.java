package io.cctflow.standalone.demo;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A small "shop" for the demo: a pool of request threads, each request pricing a cart (arithmetic),
 * checking inventory (hash maps), scoring recommendations (tree recursion) and rendering a
 * response (string building). Several distinct hot paths, recursion, and thread names that
 * normalise to one pool ({@code shop-worker-#}). Runs until killed, or for the duration given as
 * the first argument (e.g. {@code 60s}).
 */
public final class DemoWorkload {
    private static volatile long sink; // keeps the JIT from removing the work

    private DemoWorkload() {
    }

    static void consume(long value) {
        sink += value;
    }

    public static void main(String[] args) throws InterruptedException {
        Duration duration = args.length > 0 ? Duration.ofSeconds(Long.parseLong(args[0].replace("s", ""))) : null;
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
        for (int i = 0; i < threads; i++) {
            int seed = i;
            pool.execute(() -> {
                Shop shop = new Shop(seed);
                while (System.nanoTime() < end) {
                    shop.handleRequest();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(duration == null ? Long.MAX_VALUE : duration.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    }
}
