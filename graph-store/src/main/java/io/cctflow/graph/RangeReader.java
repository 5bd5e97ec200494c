package io.cctflow.graph;

import io.cctflow.core.TreeCounts;
import io.cctflow.graph.model.WindowCounts;
import io.cctflow.graph.model.WindowSpan;
import io.cctflow.graph.model.WindowVersion;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the counts of a time range with as few rows as the stored roll-ups allow: per execution,
 * the daily windows that lie inside [from, to), then the hourly windows inside it that no daily
 * one covers, then the fine windows for the rest (the edges, and hours not rolled up yet). The sum
 * of what it returns equals the sum of the fine windows overlapping [from, to), as long as the
 * roll-ups are up to date ({@link Rollups} only rolls up settled hours). The plan lists the windows
 * with their write times, so the reader's window cache ({@link GraphReader#windows(List, long)})
 * serves the versions it holds and only the others are fetched.
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
        private final List<WindowVersion> rollups;
        private final List<WindowSpan> gaps;
        private final List<WindowVersion> fine;
        private final long nowMillis;

        private Plan(List<WindowVersion> rollups, List<WindowSpan> gaps, List<WindowVersion> fine, long nowMillis) {
            this.rollups = rollups;
            this.gaps = gaps;
            this.fine = fine;
            this.nowMillis = nowMillis;
        }

        /** Roll-up windows to read. */
        public List<WindowSpan> rollups() {
            return rollups.stream().map(WindowVersion::span).toList();
        }

        /** Per execution, the intervals read from fine windows. */
        public List<WindowSpan> fineIntervals() {
            return List.copyOf(gaps);
        }

        /** Rows the read will fetch (from Neo4j or the reader's window cache): roll-ups plus fine windows. */
        public long windowCount() {
            return rollups.size() + fine.size();
        }

        /** The windows: roll-ups and fine windows, none counted twice. */
        public List<WindowCounts> read() {
            return reader.windows(all(), nowMillis);
        }

        /**
         * The summed counts of {@link #read()}, equal to {@code TreeLoader.sum(read())}. The windows
         * of one time slot (one per execution) are summed as a group, and the reader's window cache
         * keeps settled groups' sums (not their windows), so a later read over the same executions
         * and slots (another method over an overlapping range) sums one row set per slot instead of
         * one per execution; only the windows of the groups it does not hold are fetched.
         */
        public TreeCounts sum() {
            Map<List<Long>, List<WindowVersion>> slots = new LinkedHashMap<>();
            for (WindowVersion v : all()) {
                slots.computeIfAbsent(List.of(v.span().startMillis(), v.span().endMillis()), k -> new ArrayList<>())
                        .add(v);
            }
            List<TreeCounts> parts = new ArrayList<>(slots.size());
            List<WindowVersion> toRead = new ArrayList<>();
            Map<List<Long>, List<WindowVersion>> missing = new LinkedHashMap<>();
            for (Map.Entry<List<Long>, List<WindowVersion>> slot : slots.entrySet()) {
                TreeCounts cached = reader.cachedSum(slot.getValue());
                if (cached != null) {
                    parts.add(cached);
                } else {
                    missing.put(slot.getKey(), slot.getValue());
                    toRead.addAll(slot.getValue());
                }
            }
            Map<List<Long>, List<TreeCounts>> read = new HashMap<>();
            // the groups' sums are kept, not their windows: a day of ten instances is ~1 M rows so, ~7 M as windows
            for (WindowCounts w : reader.windows(toRead, nowMillis, false)) {
                read.computeIfAbsent(List.of(w.windowStartMillis(), w.windowEndMillis()), k -> new ArrayList<>())
                        .add(w.counts());
            }
            missing.forEach((slot, group) -> {
                TreeCounts sum = TreeCounts.sum(read.getOrDefault(slot, List.of()));
                parts.add(sum);
                if (read.getOrDefault(slot, List.of()).size() == group.size()) {
                    reader.keepSum(group, nowMillis, sum); // only complete groups: none was deleted meanwhile
                }
            });
            return TreeCounts.sum(parts);
        }

        private List<WindowVersion> all() {
            List<WindowVersion> all = new ArrayList<>(rollups.size() + fine.size());
            all.addAll(rollups);
            all.addAll(fine);
            return all;
        }
    }

    /**
     * Plans the read of [fromMillis, toMillis) for the executions: cheap queries that list the
     * windows (span and write time) without their counts.
     */
    public Plan plan(Collection<String> executionKeys, long fromMillis, long toMillis) {
        long now = reader.databaseTimeMillis();
        Map<String, List<WindowSpan>> covered = new HashMap<>();
        List<WindowVersion> rollups = new ArrayList<>();
        for (Resolution r : new Resolution[] {Resolution.DAY, Resolution.HOUR}) {
            if (fromMillis > toMillis - r.millis()) { // shorter than one window of r (no overflow for "all time")
                continue;
            }
            for (WindowVersion v : reader.windowVersions(executionKeys, r, fromMillis, toMillis)) {
                WindowSpan s = v.span();
                List<WindowSpan> mine = covered.computeIfAbsent(s.executionKey(), k -> new ArrayList<>());
                if (mine.stream().noneMatch(c -> c.startMillis() <= s.startMillis() && s.endMillis() <= c.endMillis())) {
                    mine.add(s);
                    rollups.add(v);
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
        List<WindowVersion> fine = new ArrayList<>();
        if (!gaps.isEmpty()) {
            for (WindowVersion v : reader.fineWindowVersionsIn(gaps)) {
                if (!isCovered(covered, v.span().executionKey(), v.span().startMillis())) {
                    fine.add(v);
                }
            }
        }
        return new Plan(rollups, gaps, fine, now);
    }

    /** A fine window longer than the job's usual one may start in a rolled-up hour and reach into a gap. */
    private static boolean isCovered(Map<String, List<WindowSpan>> covered, String executionKey, long start) {
        for (WindowSpan s : covered.getOrDefault(executionKey, List.of())) {
            if (s.startMillis() <= start && start < s.endMillis()) {
                return true;
            }
        }
        return false;
    }

    /** {@code plan(...).read()}. */
    public List<WindowCounts> read(Collection<String> executionKeys, long fromMillis, long toMillis) {
        return plan(executionKeys, fromMillis, toMillis).read();
    }
}
