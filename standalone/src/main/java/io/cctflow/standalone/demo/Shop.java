package io.cctflow.standalone.demo;

/**
 * One worker's shop; not shared between threads. A request prices a cart, checks inventory, applies
 * discounts, scores recommendations recursively, estimates shipping, renders a response and
 * checksums it.
 *
 * <p>Built for a comparison with a known answer (issue 29: the demo's comparison finds the planted
 * method, and nothing else, significant):
 * <ul>
 *   <li>Every step is a loop over primitives in our own code: no boxing, no collections, no JDK
 *       call on a hot path. What the JIT makes of such code does not change which method a sample
 *       lands in; boxing did ({@code Integer.valueOf} and {@code Integer.equals} came and went
 *       between two JVMs of the same code, significant both ways).
 *   <li>{@link #priceCart} holds about 5 % of the samples; each other step holds at most about
 *       20 %. Shares are relative: twice the work in {@code priceCart} lowers every other step's
 *       share by about 5 %, which at a 20 % share is a fall of 0.01, weighing about a tenth of
 *       what the rise of {@code priceCart} itself (0.05 to 0.10) weighs against the same noise.
 * </ul>
 */
final class Shop {
    /** Loop iterations per cart item in {@link #priceCart} of the baseline release. */
    static final int PRICE_WORK_PER_ITEM = 24;
    private static final int STOCK_SLOTS = 1 << 14;

    /** Open addressing: item id + 1 per slot (0 = empty), its quantity at the same index. */
    private final int[] stockKeys = new int[STOCK_SLOTS];
    private final int[] stockQuantities = new int[STOCK_SLOTS];
    private final int[] prices = new int[512];
    private final char[] response = new char[16_384];
    private final int priceWorkPerItem;
    private int request;

    /** @param slowdown extra work in {@link #priceCart}, e.g. 0.10 for 10 % more: a planted regression */
    Shop(int seed, double slowdown) {
        this.priceWorkPerItem = (int) Math.round(PRICE_WORK_PER_ITEM * (1 + slowdown));
        for (int i = 0; i < 10_000; i++) {
            putStock(i * 31 + seed, i % 17);
        }
        for (int i = 0; i < prices.length; i++) {
            prices[i] = 100 + (i * 37 + seed) % 900;
        }
    }

    void handleRequest() {
        request++;
        long price = priceCart(200 + request % 50);
        int available = checkInventory(250);
        long discounted = applyDiscounts(price);
        long score = Recommender.score(3 + request % 3, request);
        long shipping = estimateShipping(available);
        int length = renderResponse(discounted + shipping, available, score);
        DemoWorkload.consume(checksum(length));
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
        for (int i = 0; i < lookups * 12; i++) {
            if (stockOf((i * 7) % 310_000) > 0) {
                found++;
            }
        }
        return found;
    }

    long applyDiscounts(long price) {
        long best = price;
        for (int round = 0; round < 15; round++) {
            for (int i = 0; i < prices.length; i++) {
                long candidate = price - (prices[i] * (round + 1L)) % 97;
                if (candidate < best && (candidate & 7) != 0) {
                    best = candidate;
                }
            }
        }
        return best;
    }

    long estimateShipping(int parcels) {
        double cost = 1;
        for (int i = 0; i < 9_000 + parcels; i++) {
            cost = cost * 1.0000001 + (i & 15) * 0.25;
        }
        return (long) cost;
    }

    /** Writes a JSON-like body into the shop's buffer; returns its length. */
    int renderResponse(long price, int available, long score) {
        int at = 0;
        for (int item = 0; item < 600; item++) {
            response[at++] = '{';
            at = writeNumber(item, at);
            response[at++] = ':';
            at = writeNumber(price + item, at);
            response[at++] = ':';
            at = writeNumber(available + score % 10, at);
            response[at++] = '}';
        }
        return at;
    }

    private int writeNumber(long value, int at) {
        long v = value; // never negative here
        int start = at;
        do {
            response[at++] = (char) ('0' + v % 10);
            v /= 10;
        } while (v > 0);
        for (int i = start, j = at - 1; i < j; i++, j--) {
            char c = response[i];
            response[i] = response[j];
            response[j] = c;
        }
        return at;
    }

    long checksum(int length) {
        long hash = 1125899906842597L;
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < length; i++) {
                hash = 31 * hash + response[i];
            }
        }
        return hash;
    }

    private void putStock(int item, int quantity) {
        int slot = slotOf(item);
        stockKeys[slot] = item + 1;
        stockQuantities[slot] = quantity;
    }

    private int stockOf(int item) {
        int slot = slotOf(item);
        return stockKeys[slot] == item + 1 ? stockQuantities[slot] : 0;
    }

    /** The slot holding {@code item}, or the empty slot where it would go (linear probing). */
    private int slotOf(int item) {
        int slot = (item * 0x9E3779B1) >>> 18;
        while (stockKeys[slot] != 0 && stockKeys[slot] != item + 1) {
            slot = (slot + 1) & (STOCK_SLOTS - 1);
        }
        return slot;
    }
}
