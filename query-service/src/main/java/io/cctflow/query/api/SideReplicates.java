package io.cctflow.query.api;

import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The replicates of one side of a comparison, found without being named: its instances (executions)
 * when it has two or more, otherwise its time windows when there are two or more, otherwise the
 * side as one replicate (binomial sampling model).
 *
 * @param unit {@code instances}, {@code windows} or {@code none}
 */
public record SideReplicates(List<MethodSamples> replicates, String unit) {

    /** The replicates of the windows of one side (one selection, or one deployment over a range). */
    public static SideReplicates of(List<WindowCounts> windows) {
        Map<String, List<MethodSamples>> byExecution = new TreeMap<>();
        Map<Long, List<MethodSamples>> bySlot = new LinkedHashMap<>();
        windows.stream().sorted(Comparator.comparingLong(WindowCounts::windowStartMillis)).forEach(w -> {
            MethodSamples s = MethodSamples.of(w.counts());
            byExecution.computeIfAbsent(w.executionKey(), k -> new ArrayList<>()).add(s);
            bySlot.computeIfAbsent(w.windowStartMillis(), k -> new ArrayList<>()).add(s);
        });
        if (byExecution.size() >= 2) {
            return new SideReplicates(sums(byExecution.values()), "instances");
        }
        if (bySlot.size() >= 2) {
            return new SideReplicates(sums(bySlot.values()), "windows");
        }
        return new SideReplicates(List.of(MethodComparison.sum(windows.stream()
                .map(w -> MethodSamples.of(w.counts())).toList())), "none");
    }

    private static List<MethodSamples> sums(Iterable<List<MethodSamples>> groups) {
        List<MethodSamples> out = new ArrayList<>();
        for (List<MethodSamples> g : groups) {
            MethodSamples sum = g.size() == 1 ? g.get(0) : MethodComparison.sum(g);
            if (sum.samples() > 0) {
                out.add(sum);
            }
        }
        return out;
    }
}
