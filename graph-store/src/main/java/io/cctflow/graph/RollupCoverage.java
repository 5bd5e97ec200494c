package io.cctflow.graph;

import io.cctflow.model.WindowCounts;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which fine windows of one execution a roll-up holds: their starts and the {@link WindowChecksum}
 * of the version that was summed. Stored with every instance roll-up ({@code coverStarts},
 * {@code coverChecksums}, packed; {@code coverFor} = the checksum of the roll-up they describe), so
 * a roll-up pass can tell, after retention deleted some of an hour's fine windows, which of the
 * remaining ones the roll-up already holds and which are new ({@code maintenance.Rollups}).
 *
 * <p>Immutable and thread-safe.
 */
public final class RollupCoverage {
    /** A roll-up of nothing. */
    public static final RollupCoverage EMPTY = new RollupCoverage(new long[0], new long[0]);

    private final long[] starts; // ascending, distinct
    private final long[] checksums;

    /**
     * @param starts the fine windows' starts, ascending and distinct
     * @param checksums the checksum of each, parallel to {@code starts}
     */
    public RollupCoverage(long[] starts, long[] checksums) {
        if (starts.length != checksums.length) {
            throw new IllegalArgumentException("coverage of " + starts.length + " starts has " + checksums.length
                    + " checksums");
        }
        for (int i = 1; i < starts.length; i++) {
            if (starts[i - 1] >= starts[i]) {
                throw new IllegalArgumentException("coverage starts not ascending at " + i);
            }
        }
        this.starts = starts.clone();
        this.checksums = checksums.clone();
    }

    /** The coverage of one fine window: itself. */
    public static RollupCoverage of(WindowCounts fine) {
        return new RollupCoverage(new long[] {fine.windowStartMillis()},
                new long[] {WindowChecksum.of(fine.counts(), fine.truncation())});
    }

    /** The coverage of start → checksum entries. */
    public static RollupCoverage of(Map<Long, Long> entries) {
        TreeMap<Long, Long> sorted = new TreeMap<>(entries);
        long[] s = new long[sorted.size()];
        long[] c = new long[sorted.size()];
        int i = 0;
        for (Map.Entry<Long, Long> e : sorted.entrySet()) {
            s[i] = e.getKey();
            c[i++] = e.getValue();
        }
        return new RollupCoverage(s, c);
    }

    /** start → checksum, ascending by start (a copy). */
    public TreeMap<Long, Long> entries() {
        TreeMap<Long, Long> out = new TreeMap<>();
        for (int i = 0; i < starts.length; i++) {
            out.put(starts[i], checksums[i]);
        }
        return out;
    }

    /** Whether every fine window {@code other} covers is covered here too (at any version). */
    public boolean coversStartsOf(RollupCoverage other) {
        for (long s : other.starts) {
            if (Arrays.binarySearch(starts, s) < 0) {
                return false;
            }
        }
        return true;
    }

    public long[] starts() {
        return starts.clone();
    }

    public long[] checksums() {
        return checksums.clone();
    }

    public int size() {
        return starts.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RollupCoverage c && Arrays.equals(starts, c.starts) && Arrays.equals(checksums, c.checksums);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(starts) + Arrays.hashCode(checksums);
    }

    @Override
    public String toString() {
        return "RollupCoverage[" + starts.length + " fine windows]";
    }
}
