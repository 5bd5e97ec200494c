package io.cctflow.query.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.model.InstanceRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class DeploymentTest {

    private static InstanceRecord instance(String service, String version, String id, long first, long last) {
        return new InstanceRecord(service, version, id, "h", 1, first, Map.of(), first, last);
    }

    @Test
    void newestIsTheDeploymentWhoseSamplesStartedLastAndItsPredecessorTheOneBefore() {
        List<InstanceRecord> instances = List.of(
                instance("checkout", "v1", "a", 100, 900), // still running during the rollout
                instance("checkout", "v1", "b", 50, 400),
                instance("checkout", "v3", "c", 700, 800),
                instance("checkout", "v2", "d", 300, 600),
                instance("cart", "v9", "e", 10, 20));

        List<Deployment.Pair> pairs = Deployment.newestPairs(instances);

        assertThat(pairs).hasSize(2);
        assertThat(pairs.get(0).newest().version()).isEqualTo("v9");
        assertThat(pairs.get(0).predecessor()).isNull();
        Deployment.Pair checkout = pairs.get(1);
        assertThat(checkout.newest().version()).isEqualTo("v3");
        assertThat(checkout.predecessor().version()).isEqualTo("v2");
        Deployment v1 = Deployment.of(instances).stream().filter(d -> d.version().equals("v1")).findFirst().orElseThrow();
        assertThat(v1.firstSampleMillis()).isEqualTo(50);
        assertThat(v1.lastSampleMillis()).isEqualTo(900);
        assertThat(v1.executionKeys()).hasSize(2);
    }

    @Property(tries = 200)
    void pairsMatchABruteForceChoicePerService(@ForAll long seed) {
        Random random = new Random(seed);
        List<InstanceRecord> instances = new ArrayList<>();
        int n = random.nextInt(30);
        for (int i = 0; i < n; i++) {
            long first = random.nextInt(10); // ties on purpose
            instances.add(instance("s" + random.nextInt(3), "v" + random.nextInt(5), "i" + i, first,
                    first + random.nextInt(10)));
        }

        List<Deployment.Pair> pairs = Deployment.newestPairs(instances);

        List<String> services = instances.stream().map(InstanceRecord::service).distinct().sorted().toList();
        assertThat(pairs).hasSize(services.size());
        for (int s = 0; s < services.size(); s++) {
            String service = services.get(s);
            // brute force: first sample per version; newest = max (first, version); predecessor = next below
            List<String> versions = instances.stream().filter(i -> i.service().equals(service))
                    .map(InstanceRecord::version).distinct().toList();
            String newest = null;
            long newestFirst = Long.MIN_VALUE;
            for (String v : versions) {
                long first = firstOf(instances, service, v);
                if (first > newestFirst || (first == newestFirst && v.compareTo(newest) > 0)) {
                    newest = v;
                    newestFirst = first;
                }
            }
            String before = null;
            long beforeFirst = Long.MIN_VALUE;
            for (String v : versions) {
                long first = firstOf(instances, service, v);
                boolean earlier = first < newestFirst || (first == newestFirst && v.compareTo(newest) < 0);
                if (earlier && (first > beforeFirst || (first == beforeFirst && v.compareTo(before) > 0))) {
                    before = v;
                    beforeFirst = first;
                }
            }
            Deployment.Pair pair = pairs.get(s);
            assertThat(pair.newest().service()).isEqualTo(service);
            assertThat(pair.newest().version()).isEqualTo(newest);
            assertThat(pair.predecessor() == null ? null : pair.predecessor().version()).isEqualTo(before);
        }
    }

    private static long firstOf(List<InstanceRecord> instances, String service, String version) {
        return instances.stream().filter(i -> i.service().equals(service) && i.version().equals(version))
                .mapToLong(InstanceRecord::firstSampleMillis).min().orElseThrow();
    }
}
