package io.cctflow.graph.maintenance;

import io.cctflow.graph.Keys;
import io.cctflow.graph.SourcesDigest;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.Resolution;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The deployments' minutes whose provisional sums still sum exactly the fine windows stored in
 * them: the deployment's minute sum carries {@code sources} equal to the {@link SourcesDigest} of
 * the fine windows of its executions that start in the minute, as listed now with their stored
 * checksums, and its members are those executions. Summing such a minute again would give the
 * same sums, the deployment's and its instance groups' (groups partition the same executions, and
 * a pass writes a deployment's group sums before its own), so the pass leaves them as they are
 * while the minute is not settled, and once it settles only drops their {@code sources}.
 *
 * <p>A minute with a fine window written before checksums, or whose deployment has no provisional
 * sum (none written yet, or none worth creating), is never unchanged: it is summed as before.
 * Built from two listings (no window's counts read); not thread-safe.
 */
final class UnchangedMinutes {
    static final UnchangedMinutes NONE = new UnchangedMinutes(Map.of());

    /** Per deployment key, its unchanged minutes (by start) with their members. */
    private final Map<String, Map<Long, List<String>>> minutes;

    private UnchangedMinutes(Map<String, Map<Long, List<String>>> minutes) {
        this.minutes = minutes;
    }

    /** The unchanged minutes starting in [fromStart, toStart). */
    static UnchangedMinutes find(WindowReader reader, long fromStart, long toStart) {
        Map<Slot, SourcesDigest> digests = new HashMap<>();
        Map<Slot, Set<String>> executions = new HashMap<>();
        Set<Slot> unknown = new HashSet<>();
        for (WindowReader.FineSource f : reader.fineSourcesStartingIn(fromStart, toStart)) {
            Slot at = new Slot(Keys.deploymentRollup(f.executionKey()), Resolution.MINUTE.floor(f.startMillis()));
            executions.computeIfAbsent(at, s -> new HashSet<>()).add(f.executionKey());
            if (f.checksum() == null) {
                unknown.add(at);
            } else {
                digests.computeIfAbsent(at, s -> new SourcesDigest()).add(f.executionKey(), f.startMillis(), f.checksum());
            }
        }
        Map<String, Map<Long, List<String>>> out = new HashMap<>();
        for (WindowReader.ProvisionalSum sum : reader.provisionalSumsStartingIn(Resolution.MINUTE, fromStart, toStart)) {
            if (Keys.isInstanceGroup(sum.key())) {
                continue;
            }
            Slot at = new Slot(sum.key(), sum.startMillis());
            SourcesDigest digest = digests.get(at);
            if (digest != null && !unknown.contains(at) && digest.value().equals(sum.sources())
                    && executions.get(at).equals(new HashSet<>(sum.members()))) {
                out.computeIfAbsent(sum.key(), k -> new HashMap<>()).put(sum.startMillis(), List.copyOf(sum.members()));
            }
        }
        return new UnchangedMinutes(out);
    }

    /** Whether the deployment's minute starting at {@code minute} is unchanged. */
    boolean contains(String deploymentKey, long minute) {
        return minutes.getOrDefault(deploymentKey, Map.of()).containsKey(minute);
    }

    /** How many (deployment, minute) pairs are unchanged among the {@code starts}. */
    int count(Set<Long> starts) {
        int n = 0;
        for (Map<Long, List<String>> m : minutes.values()) {
            for (long start : m.keySet()) {
                if (starts.contains(start)) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * The keys of the sums of the unchanged deployments' minute starting at {@code minute}: each
     * deployment's and its instance groups' ({@code groups} of them, {@link Keys#instanceGroup}).
     */
    List<String> sumKeys(long minute, int groups) {
        List<String> out = new ArrayList<>();
        minutes.forEach((deployment, byStart) -> {
            List<String> members = byStart.get(minute);
            if (members != null) {
                out.add(deployment);
                TreeSet<String> groupKeys = new TreeSet<>();
                for (String m : members) {
                    groupKeys.add(Keys.instanceGroup(m, groups));
                }
                out.addAll(groupKeys);
            }
        });
        return out;
    }

    private record Slot(String deploymentKey, long minute) {
    }
}
