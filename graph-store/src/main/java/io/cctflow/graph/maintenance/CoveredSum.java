package io.cctflow.graph.maintenance;

import io.cctflow.graph.RollupCoverage;
import io.cctflow.graph.WindowChecksum;
import io.cctflow.graph.read.CoveredWindow;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A roll-up of one execution computed again from its parts (an hour from its fine windows, a day
 * from its hours) without ever holding less than the stored roll-up already holds (issue 30, item
 * 4). Retention deletes fine windows after their hour is rolled up, and hourly ones after their day
 * is, so when a late fine window re-rolls an hour the parts left may be a fraction of what the
 * roll-up was summed from:
 *
 * <ul>
 *   <li>every fine window the stored roll-up covers is still covered by a part: the sum of the
 *       parts (exact; it also takes rewritten fine windows at their new version);
 *   <li>some are gone: the stored roll-up plus the fine windows the parts cover and it does not
 *       (a covered fine window whose checksum differs was rewritten after its siblings expired:
 *       what it replaces is unknown, so it is <em>refused</em>, counted, and the roll-up keeps the
 *       version it holds; an uncovered one that can no longer be read is refused the same way);
 *   <li>the stored roll-up's coverage is unknown (written before coverage existed): the sum of the
 *       parts, unless it holds fewer samples than the stored roll-up, which is then kept (refused).
 * </ul>
 *
 * <p>Stateless.
 */
final class CoveredSum {
    /** The roll-up to store, whether it differs from the stored one, and how many parts were refused. */
    record Outcome(CoveredWindow rollup, boolean changed, int refused) {
    }

    private CoveredSum() {
    }

    /**
     * @param existing the stored roll-up, or null
     * @param parts the stored parts inside it, each with its coverage
     * @param fineWindows reads fine windows of the execution by start (those left out are gone)
     */
    static Outcome combine(String key, long start, Resolution resolution, CoveredWindow existing,
            List<CoveredWindow> parts, Function<List<Long>, List<WindowCounts>> fineWindows) {
        RollupCoverage union = union(parts);
        if (existing == null) {
            return new Outcome(new CoveredWindow(sum(key, start, resolution, parts), union), true, 0);
        }
        if (existing.coverage() == null || union == null) {
            WindowCounts recomputed = sum(key, start, resolution, parts);
            if (recomputed.counts().samples() < existing.window().counts().samples()) {
                return new Outcome(existing, false, 1);
            }
            return changed(existing, new CoveredWindow(recomputed, union), 0);
        }
        if (union.coversStartsOf(existing.coverage())) {
            return changed(existing, new CoveredWindow(sum(key, start, resolution, parts), union), 0);
        }
        TreeMap<Long, Long> covered = existing.coverage().entries();
        int refused = 0;
        List<Long> added = new ArrayList<>();
        for (Map.Entry<Long, Long> e : union.entries().entrySet()) {
            Long held = covered.get(e.getKey());
            if (held == null) {
                added.add(e.getKey());
            } else if (held.longValue() != e.getValue().longValue()) {
                refused++;
            }
        }
        if (added.isEmpty()) {
            return new Outcome(existing, false, refused);
        }
        RunningSum sum = new RunningSum();
        sum.add(existing.window());
        List<WindowCounts> found = fineWindows.apply(added);
        for (WindowCounts f : found) {
            sum.add(f);
            covered.put(f.windowStartMillis(), WindowChecksum.of(f.counts(), f.truncation()));
        }
        refused += added.size() - found.size();
        return new Outcome(new CoveredWindow(sum.window(key, start, resolution), RollupCoverage.of(covered)),
                !found.isEmpty(), refused);
    }

    private static Outcome changed(CoveredWindow existing, CoveredWindow next, int refused) {
        boolean same = existing.window().counts().equals(next.window().counts())
                && existing.window().truncation().equals(next.window().truncation())
                && next.coverage() != null && next.coverage().equals(existing.coverage());
        return new Outcome(same ? existing : next, !same, refused);
    }

    /** The fine windows the parts hold together; null if any part's is unknown. */
    private static RollupCoverage union(Collection<CoveredWindow> parts) {
        TreeMap<Long, Long> all = new TreeMap<>();
        for (CoveredWindow p : parts) {
            if (p.coverage() == null) {
                return null;
            }
            all.putAll(p.coverage().entries());
        }
        return RollupCoverage.of(all);
    }

    private static WindowCounts sum(String key, long start, Resolution resolution, List<CoveredWindow> parts) {
        RunningSum sum = new RunningSum();
        for (CoveredWindow p : parts) {
            sum.add(p.window());
        }
        return sum.window(key, start, resolution);
    }
}
