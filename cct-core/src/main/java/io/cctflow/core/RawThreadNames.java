package io.cctflow.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The raw (un-normalised) thread names behind the pool names that counts are keyed by ({@link
 * ThreadNames}: {@code pool-3-thread-17} and {@code pool-3-thread-4} both count as {@code
 * pool-#-thread-#}), kept alongside them within a bound: at most {@value #MAX_PER_POOL} per pool.
 * A raw name's pool is its normalised name, so the set is just the names, ordered by pool id
 * ({@link ThreadNames#id}) and then by name.
 *
 * <p>The bound keeps the {@value #MAX_PER_POOL} smallest names of a pool (in {@link String}
 * order), so any two sums of the same names, in any order and grouping (batches, windows, roll-ups,
 * instances), keep the same ones: a replay stores what the first write stored. Immutable and
 * thread-safe.
 */
public final class RawThreadNames {
    /** Raw names kept per pool. */
    public static final int MAX_PER_POOL = 8;
    private static final Comparator<Entry> ORDER =
            Comparator.comparingLong(Entry::pool).thenComparing(Entry::name);
    private static final RawThreadNames EMPTY = new RawThreadNames(new String[0], new long[0]);

    private final String[] names;
    private final long[] pools;

    private record Entry(long pool, String name) {
    }

    private RawThreadNames(String[] names, long[] pools) {
        this.names = names;
        this.pools = pools;
    }

    public static RawThreadNames empty() {
        return EMPTY;
    }

    /** The given raw names (nulls and repeats ignored), at most {@value #MAX_PER_POOL} per pool. */
    public static RawThreadNames of(Collection<String> rawNames) {
        List<Entry> entries = new ArrayList<>(rawNames.size());
        for (String name : rawNames) {
            if (name != null) {
                entries.add(new Entry(ThreadNames.id(name), name));
            }
        }
        return bounded(entries);
    }

    /** As {@link #of(Collection)}. */
    public static RawThreadNames of(String... rawNames) {
        return of(Arrays.asList(rawNames));
    }

    /** The union of all, bounded as {@link #of(Collection)} bounds. */
    public static RawThreadNames union(Collection<RawThreadNames> all) {
        List<Entry> entries = new ArrayList<>();
        for (RawThreadNames r : all) {
            for (int i = 0; i < r.names.length; i++) {
                entries.add(new Entry(r.pools[i], r.names[i]));
            }
        }
        return bounded(entries);
    }

    /** The union of both, bounded. */
    public RawThreadNames plus(RawThreadNames other) {
        if (other.names.length == 0) {
            return this;
        }
        return names.length == 0 ? other : union(List.of(this, other));
    }

    private static RawThreadNames bounded(List<Entry> entries) {
        if (entries.isEmpty()) {
            return EMPTY;
        }
        entries.sort(ORDER);
        List<Entry> kept = new ArrayList<>(entries.size());
        int inPool = 0;
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            boolean samePool = i > 0 && entries.get(i - 1).pool() == e.pool();
            if (samePool && entries.get(i - 1).name().equals(e.name())) {
                continue;
            }
            inPool = samePool ? inPool + 1 : 1;
            if (inPool <= MAX_PER_POOL) {
                kept.add(e);
            }
        }
        String[] names = new String[kept.size()];
        long[] pools = new long[kept.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = kept.get(i).name();
            pools[i] = kept.get(i).pool();
        }
        return new RawThreadNames(names, pools);
    }

    /** The raw names of the pool with thread id {@code pool} ({@link ThreadNames#id}), in order; empty if none. */
    public List<String> namesOf(long pool) {
        int from = lowerBound(pool);
        int to = from;
        while (to < pools.length && pools[to] == pool) {
            to++;
        }
        return List.of(Arrays.copyOfRange(names, from, to));
    }

    private int lowerBound(long pool) {
        int lo = 0;
        int hi = pools.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (pools[mid] < pool) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Every name kept, ordered by pool id and then name; a copy. */
    public String[] names() {
        return names.clone();
    }

    public boolean isEmpty() {
        return names.length == 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RawThreadNames r && Arrays.equals(names, r.names);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(names);
    }

    @Override
    public String toString() {
        return "RawThreadNames" + Arrays.toString(names);
    }
}
