package io.cctflow.core.diff;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.MethodId;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ChangeListTest {

    @Test
    void classifiesAddedDeletedAndModifiedMethods() {
        Map<String, Long> old = Map.of("A.keep()V", 1L, "A.gone()V", 2L, "A.edit()V", 3L);
        Map<String, Long> now = Map.of("A.keep()V", 1L, "A.edit()V", 4L, "A.born()V", 5L);

        ChangeList changes = ChangeList.between(old, now, MethodId::ofSignature);

        assertThat(changes.added()).containsExactly(MethodId.ofSignature("A.born()V"));
        assertThat(changes.deleted()).containsExactly(MethodId.ofSignature("A.gone()V"));
        assertThat(changes.modified()).containsExactly(MethodId.ofSignature("A.edit()V"));
        assertThat(changes.isModified(MethodId.ofSignature("A.keep()V"))).isFalse();
        assertThat(ChangeList.between(old, old, MethodId::ofSignature)).isEqualTo(ChangeList.NONE);
        assertThat(ChangeList.between(Map.of(), Map.of(), MethodId::ofSignature).isEmpty()).isTrue();
    }

    /** Against a reference built from set algebra on (signature, fingerprint) pairs. */
    @Property(tries = 500)
    void matchesSetAlgebraOnRandomManifests(@ForAll long seed, @ForAll @IntRange(min = 0, max = 30) int size) {
        Random random = new Random(seed);
        Map<String, Long> old = randomManifest(random, size);
        Map<String, Long> now = randomManifest(random, size);

        ChangeList changes = ChangeList.between(old, now, MethodId::ofSignature);

        Set<String> added = new HashSet<>(now.keySet());
        added.removeAll(old.keySet());
        Set<String> deleted = new HashSet<>(old.keySet());
        deleted.removeAll(now.keySet());
        Set<Map.Entry<String, Long>> changedPairs = new HashSet<>(now.entrySet());
        changedPairs.removeAll(old.entrySet());
        Set<String> modified = new HashSet<>();
        for (Map.Entry<String, Long> e : changedPairs) {
            if (old.containsKey(e.getKey())) {
                modified.add(e.getKey());
            }
        }
        assertThat(changes.added()).containsExactlyInAnyOrder(ids(added));
        assertThat(changes.deleted()).containsExactlyInAnyOrder(ids(deleted));
        assertThat(changes.modified()).containsExactlyInAnyOrder(ids(modified));
        // every method of either side is in exactly one class, or unchanged
        for (String s : union(old.keySet(), now.keySet())) {
            long id = MethodId.ofSignature(s);
            int classes = (changes.isAdded(id) ? 1 : 0) + (changes.isDeleted(id) ? 1 : 0) + (changes.isModified(id) ? 1 : 0);
            boolean unchanged = old.containsKey(s) && now.containsKey(s) && old.get(s).equals(now.get(s));
            assertThat(classes).as(s).isEqualTo(unchanged ? 0 : 1);
        }
    }

    /** Signatures from a small alphabet and fingerprints from a small range, so sides overlap and agree often. */
    private static Map<String, Long> randomManifest(Random random, int size) {
        Map<String, Long> m = new HashMap<>();
        for (int i = 0; i < size; i++) {
            m.put("C" + random.nextInt(4) + ".m" + random.nextInt(10) + "()V", (long) random.nextInt(3));
        }
        return m;
    }

    private static long[] ids(Set<String> signatures) {
        return signatures.stream().mapToLong(MethodId::ofSignature).toArray();
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> u = new HashSet<>(a);
        u.addAll(b);
        return u;
    }
}
