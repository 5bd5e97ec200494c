package io.cctflow.query.alerting;

import io.cctflow.model.InstanceRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A deployment (service, version) with its instances and the span of their samples: the first
 * sample of any instance and the last. Immutable.
 */
public record Deployment(String service, String version, List<InstanceRecord> instances, long firstSampleMillis,
        long lastSampleMillis) {

    public Deployment {
        instances = List.copyOf(instances);
    }

    /** The execution keys of its instances, as the stored windows name them. */
    public List<String> executionKeys() {
        return instances.stream().map(i -> i.executionId().key()).toList();
    }

    /**
     * A service's newest deployment (the one whose samples started last) and its predecessor (the
     * deployment of the same service whose samples started most recently before), or null.
     */
    public record Pair(Deployment newest, Deployment predecessor) {
    }

    /** Groups instances into deployments, ordered by service, then first sample, then version. */
    public static List<Deployment> of(List<InstanceRecord> instances) {
        Map<List<String>, List<InstanceRecord>> groups = new LinkedHashMap<>();
        for (InstanceRecord i : instances) {
            groups.computeIfAbsent(List.of(i.service(), i.version()), k -> new ArrayList<>()).add(i);
        }
        List<Deployment> out = new ArrayList<>();
        groups.forEach((key, members) -> out.add(new Deployment(key.get(0), key.get(1), members,
                members.stream().mapToLong(InstanceRecord::firstSampleMillis).min().orElseThrow(),
                members.stream().mapToLong(InstanceRecord::lastSampleMillis).max().orElseThrow())));
        out.sort(Comparator.comparing(Deployment::service).thenComparingLong(Deployment::firstSampleMillis)
                .thenComparing(Deployment::version));
        return out;
    }

    /**
     * Per service, its newest deployment and the predecessor. Deployments whose samples started at
     * the same instant are ordered by version name, so the choice is deterministic.
     */
    public static List<Pair> newestPairs(List<InstanceRecord> instances) {
        List<Deployment> all = of(instances);
        List<Pair> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            boolean lastOfService = i == all.size() - 1 || !all.get(i + 1).service().equals(all.get(i).service());
            if (lastOfService) {
                boolean hasPredecessor = i > 0 && all.get(i - 1).service().equals(all.get(i).service());
                out.add(new Pair(all.get(i), hasPredecessor ? all.get(i - 1) : null));
            }
        }
        return out;
    }
}
