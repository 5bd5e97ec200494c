package io.cctflow.query.api;

import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.graph.Keys;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The replicates one side of a comparison could offer, found without being named: its instances
 * (executions; each instance's windows summed), its instance groups (the instances of a deployment
 * in a fixed number of groups by a stable hash of their key, {@link Keys#instanceGroup}; each
 * group's windows summed), its time windows (one per time slot, the instances' windows of a slot
 * summed), and the whole side as one. Which of them a comparison uses is chosen for both sides at
 * once ({@link #pair}), so that both sides' noise is of one kind.
 *
 * <p>A side read from the roll-ups of instance groups (a whole deployment over rolled-up hours)
 * offers no instances: those sums hold many instances each. Its groups still differ by what their
 * JVMs decided, as instances do, where the time windows of the same JVMs would not.
 *
 * @param instances one per instance with samples
 * @param groups one per instance group with samples (none unless the side was read by groups)
 * @param windows one per time slot with samples
 * @param whole the side's per-method sum
 */
public record SideReplicates(List<MethodSamples> instances, List<MethodSamples> groups, List<MethodSamples> windows,
        MethodSamples whole) {
    /** Unit: instances. */
    public static final String INSTANCES = "instances";
    /** Unit: instance groups ({@link Keys#instanceGroup}). */
    public static final String INSTANCE_GROUPS = "instance groups";
    /** Unit: windows. */
    public static final String WINDOWS = "windows";
    /** Unit: none, each side one replicate (labels withheld). */
    public static final String NONE = "none";

    /**
     * Both sides' replicates in one unit.
     *
     * @param unit {@value #INSTANCES}, {@value #INSTANCE_GROUPS}, {@value #WINDOWS} or {@value #NONE}
     * @param offered what each side offered, in words (for the message when no unit serves both)
     */
    public record Pair(List<MethodSamples> a, List<MethodSamples> b, String unit, String offered) {
    }

    /** The candidate replicates of the windows of one side (one selection, or one deployment over a range). */
    public static SideReplicates of(List<WindowCounts> windows) {
        return of(windows, 0);
    }

    /**
     * {@link #of(List)} with instance groups as well: each window's execution in its group of
     * {@code groups} ({@link Keys#instanceGroup}; a group's roll-up in itself). Instances are offered
     * only when no window is a group's roll-up.
     *
     * @param groups the number of instance groups, 0 for none
     */
    public static SideReplicates of(List<WindowCounts> windows, int groups) {
        Map<String, List<MethodSamples>> byExecution = new TreeMap<>();
        Map<String, List<MethodSamples>> byGroup = new TreeMap<>();
        Map<Long, List<MethodSamples>> bySlot = new LinkedHashMap<>();
        boolean readByGroup = false;
        for (WindowCounts w : windows.stream().sorted(Comparator.comparingLong(WindowCounts::windowStartMillis))
                .toList()) {
            MethodSamples s = MethodSamples.of(w.counts());
            byExecution.computeIfAbsent(w.executionKey(), k -> new ArrayList<>()).add(s);
            if (groups > 0) {
                byGroup.computeIfAbsent(Keys.instanceGroup(w.executionKey(), groups), k -> new ArrayList<>()).add(s);
                readByGroup |= Keys.isInstanceGroup(w.executionKey());
            }
            bySlot.computeIfAbsent(w.windowStartMillis(), k -> new ArrayList<>()).add(s);
        }
        return new SideReplicates(readByGroup ? List.of() : sums(byExecution.values()), sums(byGroup.values()),
                sums(bySlot.values()),
                MethodComparison.sum(windows.stream().map(w -> MethodSamples.of(w.counts())).toList()));
    }

    /**
     * What {@link #of(List)} offers, from sums made elsewhere (e.g. of windows as stored, made whole
     * after summing): one per instance, by execution key, and one per time slot, by start, as {@link
     * #of(List)} orders them, and the whole side; replicates without samples are left out, as there.
     */
    public static SideReplicates ofSums(List<MethodSamples> instances, List<MethodSamples> windows, MethodSamples whole) {
        return new SideReplicates(withSamples(instances), List.of(), withSamples(windows), whole);
    }

    /** A side that offers only itself as one replicate (e.g. its tree under a thread filter). */
    public static SideReplicates whole(MethodSamples side) {
        return new SideReplicates(List.of(), List.of(), List.of(), side);
    }

    /**
     * One unit for both sides: instances when each side has two or more, else instance groups when
     * each has two or more, else windows when each has two or more, else each side as one
     * replicate. Instances on one side and windows on the other would set two kinds of noise
     * against each other: instances (and groups of them) differ by what the JVMs decided (JIT, GC),
     * the windows of the same JVMs only by time.
     */
    public static Pair pair(SideReplicates a, SideReplicates b) {
        String offered = "a: " + a.offered() + ", b: " + b.offered();
        if (a.instances.size() >= 2 && b.instances.size() >= 2) {
            return new Pair(a.instances, b.instances, INSTANCES, offered);
        }
        if (a.groups.size() >= 2 && b.groups.size() >= 2) {
            return new Pair(a.groups, b.groups, INSTANCE_GROUPS, offered);
        }
        if (a.windows.size() >= 2 && b.windows.size() >= 2) {
            return new Pair(a.windows, b.windows, WINDOWS, offered);
        }
        return new Pair(List.of(a.whole), List.of(b.whole), NONE, offered);
    }

    /** "one window of one instance", or e.g. "1 instance, 3 windows" or "0 instances, 16 instance groups, 1 window". */
    String offered() {
        if (instances.size() <= 1 && groups.size() <= 1 && windows.size() <= 1) {
            return "one window of one instance";
        }
        return instances.size() + (instances.size() == 1 ? " instance, " : " instances, ")
                + (groups.isEmpty() ? "" : groups.size() + (groups.size() == 1 ? " instance group, " : " instance groups, "))
                + windows.size() + (windows.size() == 1 ? " window" : " windows");
    }

    private static List<MethodSamples> sums(Iterable<List<MethodSamples>> groups) {
        List<MethodSamples> out = new ArrayList<>();
        for (List<MethodSamples> g : groups) {
            out.add(g.size() == 1 ? g.get(0) : MethodComparison.sum(g));
        }
        return withSamples(out);
    }

    private static List<MethodSamples> withSamples(List<MethodSamples> replicates) {
        return replicates.stream().filter(r -> r.samples() > 0).toList();
    }
}
