package io.cctflow.standalone.demo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One worker's shop; not shared between threads. The work is balanced so that {@link #priceCart}
 * holds about 6 % of the samples and no other method more than about a third: a planted slowdown
 * of {@code priceCart} then raises its share clearly, while the fall it causes in the others'
 * shares (shares are relative) stays within their noise (issue 29: the demo's comparison finds that
 * one method, and nothing else, significant).
 */
final class Shop {
    /** Loop iterations per cart item in {@link #priceCart} of the baseline release. */
    static final int PRICE_WORK_PER_ITEM = 40;

    private final Map<Integer, Integer> stock = new HashMap<>();
    private final int priceWorkPerItem;
    private int request;

    /** @param slowdown extra work in {@link #priceCart}, e.g. 0.10 for 10 % more: a planted regression */
    Shop(int seed, double slowdown) {
        this.priceWorkPerItem = (int) Math.round(PRICE_WORK_PER_ITEM * (1 + slowdown));
        for (int i = 0; i < 10_000; i++) {
            stock.put(i * 31 + seed, i % 17);
        }
    }

    void handleRequest() {
        request++;
        long price = priceCart(200 + request % 50);
        int available = checkInventory(250);
        long score = Recommender.score(22 + request % 3);
        String body = renderResponse(price, available, score);
        DemoWorkload.consume(body.length());
    }

    long priceCart(int items) {
        long total = 0;
        for (int i = 0; i < items * priceWorkPerItem; i++) {
            total += (i * 2654435761L) % 997;
        }
        return total;
    }

    int checkInventory(int lookups) {
        int found = 0;
        for (int i = 0; i < lookups * 20; i++) {
            Integer qty = stock.get((i * 7) % 310_000);
            if (qty != null && qty > 0) {
                found++;
            }
        }
        return found;
    }

    String renderResponse(long price, int available, long score) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            parts.add("{\"item\":" + i + ",\"price\":" + (price + i) + ",\"stock\":" + available + "}");
        }
        return String.join(",", parts) + score;
    }
}

