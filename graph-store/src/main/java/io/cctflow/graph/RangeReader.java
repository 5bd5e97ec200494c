package io.cctflow.graph;

import io.cctflow.graph.model.WindowCounts;
import io.cctflow.graph.model.WindowSpan;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the counts of a time range with as few rows as the stored roll-ups allow: per execution,
 * the daily windows that lie inside [from, to), then the hourly windows inside it that no daily
 * one covers, then the fine windows for the rest (the edges, and hours not rolled up yet). The sum
 * of what it returns equals the sum of the fine windows overlapping [from, to), as long as the
 * roll-ups are up to date ({@link Rollups} only rolls up settled hours).
 *
 * <p>Thread-safe as far as the {@link GraphReader} is.
 */
public final class RangeReader {
    private final GraphReader reader;

    public RangeReader(GraphReader reader) {
        this.reader = reader;
    }

    /** Which windows a range read will fetch; {@link #windowCount()} before paying for the counts. */
    public final class Plan {
        private final List<WindowSpan> rollups;
        private final List<WindowSpan> gaps;
        private final Map<String, List<WindowSpan>> covered;
        private long fineCount = -1;

        private Plan(List<WindowSpan> rollups, List<WindowSpan> gaps, Map<String, List<WindowSpan>> covered) {
            this.rollups = rollups;
            this.gaps = gaps;
            this.covered = covered;
        }

        /** Roll-up windows to read. */
        public List<WindowSpan> rollups() {
            return List.copyOf(rollups);
        }

        /** Per execution, the intervals read from fine windows. */
        public List<WindowSpan> fineIntervals() {
            return List.copyOf(gaps);
        }

        /** Rows the read will fetch: roll-ups plus fine windows (one count query). */
        public long windowCount() {
            if (fineCount < 0) {
                fineCount = gaps.isEmpty() ? 0 : reader.countFineWindowsIn(gaps);
            }
            return rollups.size() + fineCount;
        }

        /** The windows: roll-ups and fine windows, none counted twice. */
        public List<WindowCounts> read() {
            List<WindowCounts> out = new ArrayList<>(reader.windows(rollups));
            if (!gaps.isEmpty()) {
                for (WindowCounts w : reader.fineWindowsIn(gaps)) {
                    if (!isCovered(w.executionKey(), w.windowStartMillis())) {
                        out.add(w);
                    }
                }
            }
            return out;
        }

        /** A fine window longer than the job's usual one may start in a rolled-up hour and reach into a gap. */
        private boolean isCovered(String executionKey, long start) {
            for (WindowSpan s : covered.getOrDefault(executionKey, List.of())) {
                if (s.startMillis() <= start && start < s.endMillis()) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Plans the read of [fromMillis, toMillis) for the executions: two cheap span queries. */
    public Plan plan(Collection<String> executionKeys, long fromMillis, long toMillis) {
        Map<String, List<WindowSpan>> covered = new HashMap<>();
        List<WindowSpan> rollups = new ArrayList<>();
        for (Resolution r : new Resolution[] {Resolution.DAY, Resolution.HOUR}) {
            if (fromMillis > toMillis - r.millis()) { // shorter than one window of r (no overflow for "all time")
                continue;
            }
            for (WindowSpan s : reader.windowSpans(executionKeys, r, fromMillis, toMillis)) {
                List<WindowSpan> mine = covered.computeIfAbsent(s.executionKey(), k -> new ArrayList<>());
                if (mine.stream().noneMatch(c -> c.startMillis() <= s.startMillis() && s.endMillis() <= c.endMillis())) {
                    mine.add(s);
                    rollups.add(s);
                }
            }
        }
        List<WindowSpan> gaps = new ArrayList<>();
        for (String key : executionKeys) {
            List<WindowSpan> mine = new ArrayList<>(covered.getOrDefault(key, List.of()));
            mine.sort(Comparator.comparingLong(WindowSpan::startMillis));
            long at = fromMillis;
            if (!mine.isEmpty() && mine.get(0).startMillis() == fromMillis) {
                // a fine window that starts before the range but reaches into it (the job's window
                // need not divide an hour) still counts, as in a fine-only read
                gaps.add(new WindowSpan(key, Resolution.FINE, fromMillis, fromMillis + 1));
            }
            for (WindowSpan s : mine) {
                if (s.startMillis() > at) {
                    gaps.add(new WindowSpan(key, Resolution.FINE, at, s.startMillis()));
                }
                at = Math.max(at, s.endMillis());
            }
            if (at < toMillis) {
                gaps.add(new WindowSpan(key, Resolution.FINE, at, toMillis));
            }
        }
        return new Plan(rollups, gaps, covered);
    }

    /** {@code plan(...).read()}. */
    public List<WindowCounts> read(Collection<String> executionKeys, long fromMillis, long toMillis) {
        return plan(executionKeys, fromMillis, toMillis).read();
    }
}
