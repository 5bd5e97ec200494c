package io.cctflow.query.alerting;

import io.cctflow.core.RunningCounts;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.WindowCounts;
import io.cctflow.query.api.SideReplicates;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A deployment's fine windows over a trailing window, read as stored (self counts) and summed per
 * instance and per time slot before anything is made whole: the refresher's counts (the sum, made
 * whole, for the samples and the tree; the per-method tables of the instances and slots, for the
 * shift test, {@link TopologyReader#methodSamples}, no expansion built) at one walk per instance
 * and slot instead of one expansion per window. The windows are read {@link #CHUNK} instances at
 * a time and each is added to its instance's and its slot's running sums ({@link RunningCounts})
 * as the driver streams it in, none held ({@link WindowReader#foldStoredWindows}): what a refresh
 * holds is bounded by the instances, the slots and the topology, not by how many windows
 * {@code alerting.window} spans. Equal to {@link WindowReader#sum} and {@link
 * SideReplicates#of(List)} of the same windows read whole: expanding counts is linear in their
 * self counts. Not thread-safe.
 */
final class DeploymentCounts {
    /** Instances whose windows one read fetches. */
    static final int CHUNK = 100;

    private final TopologyReader topology;
    private final List<TreeCounts> instances; // as stored, by execution key
    private final List<TreeCounts> slots; // as stored, by slot start
    private final TreeCounts stored;
    private TreeCounts sum; // whole, made on first use

    private DeploymentCounts(TopologyReader topology, List<TreeCounts> instances, List<TreeCounts> slots) {
        this.topology = topology;
        this.instances = instances;
        this.slots = slots;
        this.stored = TreeCounts.sum(instances);
    }

    /** The fine windows of {@code executionKeys} overlapping [fromMillis, toMillis), summed as stored. */
    static DeploymentCounts read(WindowReader windows, TopologyReader topology, List<String> executionKeys,
            long fromMillis, long toMillis) {
        return read(windows, topology, executionKeys, fromMillis, toMillis, CHUNK);
    }

    /** {@link #read(WindowReader, TopologyReader, List, long, long)}, {@code chunk} instances per read. */
    static DeploymentCounts read(WindowReader windows, TopologyReader topology, List<String> executionKeys,
            long fromMillis, long toMillis, int chunk) {
        Map<String, RunningCounts> byInstance = new TreeMap<>();
        Map<Long, RunningCounts> bySlot = new TreeMap<>();
        for (int from = 0; from < executionKeys.size(); from += chunk) {
            List<String> keys = executionKeys.subList(from, Math.min(executionKeys.size(), from + chunk));
            // summed as the windows stream in; a read repeated (a torn window) starts from new sums
            ReadSums read = windows.foldStoredWindows(keys, fromMillis, toMillis, ReadSums::new, ReadSums::add);
            read.instance.forEach((k, v) -> byInstance.computeIfAbsent(k, x -> new RunningCounts()).add(v.counts()));
            read.slot.forEach((k, v) -> bySlot.computeIfAbsent(k, x -> new RunningCounts()).add(v.counts()));
        }
        return new DeploymentCounts(topology, byInstance.values().stream().map(RunningCounts::counts).toList(),
                bySlot.values().stream().map(RunningCounts::counts).toList());
    }

    /** The sums of one read's windows, per instance and per slot, in the order the windows came. */
    private static final class ReadSums {
        private final Map<String, RunningCounts> instance = new HashMap<>();
        private final Map<Long, RunningCounts> slot = new HashMap<>();

        void add(WindowCounts w) {
            instance.computeIfAbsent(w.executionKey(), k -> new RunningCounts()).add(w.counts());
            slot.computeIfAbsent(w.windowStartMillis(), k -> new RunningCounts()).add(w.counts());
        }
    }

    /** All samples of the windows (the root's total). */
    long samples() {
        return sum().samples();
    }

    /** The windows' sum, whole. */
    TreeCounts sum() {
        if (sum == null) {
            sum = topology.expand(stored);
        }
        return sum;
    }

    /** What the windows offer a comparison: their instances and time slots ({@link SideReplicates#of(List)}). */
    SideReplicates replicates() {
        List<TreeCounts> parts = new ArrayList<>(instances);
        parts.addAll(slots);
        List<MethodSamples> tables = topology.methodSamples(parts);
        return SideReplicates.ofSums(tables.subList(0, instances.size()), tables.subList(instances.size(), tables.size()),
                MethodSamples.of(sum()));
    }
}
