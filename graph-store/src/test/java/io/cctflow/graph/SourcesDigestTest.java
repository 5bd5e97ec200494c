package io.cctflow.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The digest of a set of fine windows ({@link SourcesDigest}: what a provisional minute sum records
 * and a range read compares) against the set itself (the reference, as a sorted set of names):
 * equal exactly when the sets are equal, whatever the order they were added in, on random sets
 * drawn from a small domain so that equal and nearly equal sets are common.
 */
class SourcesDigestTest {
    /** A fine window as the digest names it. */
    record Source(String execution, long start, long checksum) {
        String name() {
            return execution + "@" + start + "#" + checksum;
        }
    }

    private static String digest(List<Source> sources) {
        SourcesDigest d = new SourcesDigest();
        sources.forEach(s -> d.add(s.execution(), s.start(), s.checksum()));
        return d.value();
    }

    private static Set<String> names(List<Source> sources) {
        Set<String> out = new TreeSet<>();
        sources.forEach(s -> out.add(s.name()));
        return out;
    }

    @Property(tries = 1000)
    void digestsAreEqualExactlyWhenTheSetsAre(@ForAll("sources") List<Source> a, @ForAll("sources") List<Source> b) {
        assertThat(digest(a).equals(digest(b))).isEqualTo(names(a).equals(names(b)));
    }

    @Property(tries = 300)
    void theOrderDoesNotMatterAndEveryChangeOfOneWindowDoes(@ForAll("sources") List<Source> a, @ForAll long seed) {
        String digest = digest(a);
        assertThat(digest).matches("[0-9a-f]{32}");
        List<Source> shuffled = new ArrayList<>(a);
        Random random = new Random(seed);
        Collections.shuffle(shuffled, random);
        assertThat(digest(shuffled)).isEqualTo(digest);
        if (a.isEmpty()) {
            return;
        }
        int k = random.nextInt(a.size());
        Source s = a.get(k);
        for (Source other : List.of(new Source(s.execution(), s.start(), s.checksum() + 1), // other counts
                new Source(s.execution() + "x", s.start(), s.checksum()), // another execution's
                new Source(s.execution(), s.start() + 60_000, s.checksum()))) { // another minute's
            List<Source> changed = new ArrayList<>(a);
            changed.set(k, other);
            assertThat(digest(changed)).isNotEqualTo(digest);
        }
        List<Source> removed = new ArrayList<>(a);
        removed.remove(k);
        assertThat(digest(removed)).isNotEqualTo(digest);
    }

    /** Distinct windows (a window is named once by a read's listing and by a pass), from a small domain. */
    @Provide
    Arbitrary<List<Source>> sources() {
        Arbitrary<Source> one = Combinators.combine(Arbitraries.of("a", "b", "c", "d"),
                Arbitraries.longs().between(0, 3).map(m -> m * 60_000), Arbitraries.longs().between(-2, 2))
                .as(Source::new);
        return one.list().ofMaxSize(8).uniqueElements(Source::name);
    }
}
