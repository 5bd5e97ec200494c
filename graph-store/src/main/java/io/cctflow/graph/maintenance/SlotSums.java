package io.cctflow.graph.maintenance;

import io.cctflow.graph.SourcesDigest;
import io.cctflow.graph.WindowChecksum;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongPredicate;
import java.util.function.Predicate;

/**
 * One deployment's sums, per slot of one resolution within a rolled-up hour (its ten-minute or
 * minute windows), of its executions' fine windows that start in each slot, added one execution
 * at a time. A slot where an execution's covered fine window is gone (retention) is left out:
 * its stored window, if any, is left as it is and expires with the fine windows.
 *
 * <p>A slot's window is worth creating ({@link #worthCreating}) when it has two members or more
 * and its rows (nodes and per-thread entries) are at most {@code 1 / share} of the rows of the
 * fine windows it sums: a deployment roll-up then adds at most that share of their bytes to the
 * store, and a read of the slot fetches that share of their rows or less.
 *
 * <p>With {@code whole} (minute windows), a slot's window is written only when every fine window
 * it sums starts at the slot's start and lasts at least the slot's length (the samples job's
 * default one-minute windows): then each of them overlaps every range that overlaps the slot, so
 * a range read may use the window for a range that starts or ends inside the minute, as it would
 * read those fine windows ({@code RangePlanner}). Slots that break the rule are {@link #broken}:
 * their stored window, if any, must go.
 *
 * <p>A slot that is {@code provisional} (a minute not settled yet, whose fine windows may still be
 * rewritten) gets the {@link SourcesDigest} of the fine windows it sums as its window's {@code
 * sources}: a range read uses it only where the fine windows it lists are those. Not thread-safe.
 */
final class SlotSums {
    private final Resolution resolution;
    private final int pending;
    private final int share;
    private final boolean whole;
    private final TreeMap<Long, RunningSum> sums = new TreeMap<>();
    private final Map<Long, TreeSet<String>> members = new HashMap<>();
    private final Map<Long, Long> partRows = new HashMap<>();
    private final Set<Long> incomplete = new HashSet<>();
    private final Set<Long> broken = new TreeSet<>();
    private final LongPredicate provisional;
    private final Map<Long, SourcesDigest> sources = new HashMap<>();

    /**
     * @param pending windows each slot's running sum holds before folding them in ({@link RunningSum})
     * @param share the most a created window's rows may be of its parts' rows, as a fraction 1 / share
     * @param whole whether each part must start at its slot's start and last at least the slot's length
     */
    SlotSums(Resolution resolution, int pending, int share, boolean whole) {
        this(resolution, pending, share, whole, slot -> false);
    }

    /** @param provisional which slots (by their start) are summed before they settle: their windows carry sources */
    SlotSums(Resolution resolution, int pending, int share, boolean whole, LongPredicate provisional) {
        this.resolution = resolution;
        this.pending = pending;
        this.share = share;
        this.whole = whole;
        this.provisional = provisional;
    }

    Resolution resolution() {
        return resolution;
    }

    /** Adds an execution's fine window to the slot it starts in. */
    void add(String execution, WindowCounts fine) {
        long slot = resolution.floor(fine.windowStartMillis());
        if (whole && (fine.windowStartMillis() != slot
                || fine.windowEndMillis() - fine.windowStartMillis() < resolution.millis())) {
            broken.add(slot);
        }
        sums.computeIfAbsent(slot, s -> new RunningSum(pending)).add(fine);
        members.computeIfAbsent(slot, s -> new TreeSet<>()).add(execution);
        partRows.merge(slot, rows(fine), Long::sum);
        if (provisional.test(slot)) { // the checksum as stored: fine windows are read as stored (projections)
            sources.computeIfAbsent(slot, s -> new SourcesDigest()).add(execution, fine.windowStartMillis(),
                    WindowChecksum.of(fine.counts(), fine.truncation()));
        }
    }

    /** A fine window that a stored roll-up covers and that is gone: its slot is left as it is. */
    void missing(long fineStartMillis) {
        incomplete.add(resolution.floor(fineStartMillis));
    }

    /** The deployment's windows of the complete slots, in slot order. */
    List<DeploymentWindow> windows(String deploymentKey) {
        List<DeploymentWindow> out = new ArrayList<>();
        sums.forEach((slot, sum) -> {
            if (!incomplete.contains(slot) && !broken.contains(slot)) {
                SourcesDigest digest = sources.get(slot);
                out.add(new DeploymentWindow(sum.window(deploymentKey, slot, resolution),
                        List.copyOf(members.get(slot)), digest == null ? null : digest.value()));
            }
        });
        return out;
    }

    /** Starts of the slots whose parts break the {@code whole} rule: no window of theirs may stay stored. */
    List<Long> broken() {
        return List.copyOf(broken);
    }

    /** Which of {@link #windows} are created where not stored yet (the others only rewritten where they are). */
    Predicate<DeploymentWindow> worthCreating() {
        return w -> w.members().size() > 1
                && rows(w.window()) * share <= partRows.get(w.window().windowStartMillis());
    }

    private static long rows(WindowCounts w) {
        return (long) w.counts().nodeIds().length + w.counts().threadNodeIds().length;
    }
}
