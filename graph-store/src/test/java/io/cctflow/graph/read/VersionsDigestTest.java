package io.cctflow.graph.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.model.Resolution;
import io.cctflow.model.WindowSpan;
import io.cctflow.model.WindowVersion;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The fixed-size name of a set of window versions ({@link VersionedWindows#versionsDigest}, the
 * tree cache's key) against the full sorted name ({@link VersionedWindows#versionsKey}, the
 * reference): equal exactly when the full names are equal, on random sets drawn from a small
 * domain so that equal and nearly equal sets are common.
 */
class VersionsDigestTest {

    @Property(tries = 500)
    void digestsAreEqualExactlyWhenTheFullNamesAre(@ForAll("versions") List<WindowVersion> a,
            @ForAll("versions") List<WindowVersion> b) {
        boolean sameSet = VersionedWindows.versionsKey(a).equals(VersionedWindows.versionsKey(b));
        assertThat(VersionedWindows.versionsDigest(a).equals(VersionedWindows.versionsDigest(b))).isEqualTo(sameSet);
    }

    @Property(tries = 300)
    void theOrderDoesNotMatterAndEveryChangeOfOneMemberDoes(@ForAll("versions") List<WindowVersion> a, @ForAll long seed) {
        String digest = VersionedWindows.versionsDigest(a);
        assertThat(digest).hasSize(32).matches("[0-9a-f]{32}");
        List<WindowVersion> shuffled = new ArrayList<>(a);
        Random random = new Random(seed);
        Collections.shuffle(shuffled, random);
        assertThat(VersionedWindows.versionsDigest(shuffled)).isEqualTo(digest);
        if (a.isEmpty()) {
            return;
        }
        int k = random.nextInt(a.size());
        WindowVersion v = a.get(k);
        WindowSpan s = v.span();
        List<WindowVersion> changed = List.of(
                new WindowVersion(s, v.writtenMillis() + 1), // rewritten
                new WindowVersion(new WindowSpan(s.executionKey() + "x", s.resolution(), s.startMillis(), s.endMillis()), v.writtenMillis()),
                new WindowVersion(new WindowSpan(s.executionKey(), s.resolution() == Resolution.FINE ? Resolution.HOUR : Resolution.FINE,
                        s.startMillis(), s.endMillis()), v.writtenMillis()),
                new WindowVersion(new WindowSpan(s.executionKey(), s.resolution(), s.startMillis() + 60_000, s.endMillis()), v.writtenMillis()));
        for (WindowVersion other : changed) {
            List<WindowVersion> b = new ArrayList<>(a);
            b.set(k, other);
            assertThat(VersionedWindows.versionsDigest(b)).isNotEqualTo(digest);
        }
        List<WindowVersion> removed = new ArrayList<>(a);
        removed.remove(k);
        assertThat(VersionedWindows.versionsDigest(removed)).isNotEqualTo(digest);
    }

    @Test
    void aDayOfAThousandInstancesHasAThirtyTwoCharacterName() {
        List<WindowVersion> day = new ArrayList<>();
        for (int instance = 0; instance < 1_000; instance++) {
            for (int hour = 0; hour < 24; hour++) {
                day.add(new WindowVersion(new WindowSpan("shop@v1@i-" + instance, Resolution.HOUR, hour * 3_600_000L,
                        (hour + 1) * 3_600_000L), 90_000_000L + instance));
            }
        }
        assertThat(VersionedWindows.versionsKey(day).length()).isGreaterThan(500_000);
        String digest = VersionedWindows.versionsDigest(day);
        assertThat(digest).hasSize(32);
        day.set(12_345, new WindowVersion(day.get(12_345).span(), day.get(12_345).writtenMillis() + 1));
        assertThat(VersionedWindows.versionsDigest(day)).isNotEqualTo(digest);
    }

    /** Sets (no member twice) of a few windows over 3 executions, 2 resolutions, 4 starts and 2 write times. */
    @Provide
    Arbitrary<List<WindowVersion>> versions() {
        Arbitrary<WindowVersion> one = Combinators.combine(Arbitraries.of("s@v1@i-1", "s@v1@i-2", "s@v2@i-1"),
                Arbitraries.of(Resolution.FINE, Resolution.HOUR), Arbitraries.integers().between(0, 3),
                Arbitraries.longs().between(1, 2))
                .as((execution, resolution, start, written) -> new WindowVersion(
                        new WindowSpan(execution, resolution, start * 60_000L, (start + 1) * 60_000L), written));
        return one.list().ofMaxSize(5).uniqueElements();
    }
}
