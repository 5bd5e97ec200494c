package io.cctflow.graph.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.model.Resolution;
import io.cctflow.model.WindowSpan;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link RangePlanner#uncovered}, where a plan seeks fine windows and executions' own roll-ups:
 * against a brute force over every millisecond of small ranges, with spans that overlap, touch,
 * repeat, come in any order and reach past either end of the range.
 */
class UncoveredSpansTest {
    @Property(tries = 2000)
    void theGapsAreExactlyTheMillisecondsNoSpanCovers(@ForAll long seed, @ForAll @IntRange(min = 0, max = 8) int count) {
        Random random = new Random(seed);
        long from = random.nextInt(20);
        long to = from + random.nextInt(40);
        List<WindowSpan> spans = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            long start = random.nextInt(70) - 5;
            spans.add(new WindowSpan("e", Resolution.HOUR, start, start + 1 + random.nextInt(15)));
        }
        List<long[]> gaps = RangePlanner.uncovered(random.nextInt(10) == 0 && spans.isEmpty() ? null : spans, from, to);

        List<long[]> expected = new ArrayList<>();
        for (long t = from; t < to; t++) {
            long at = t;
            if (spans.stream().noneMatch(s -> s.startMillis() <= at && at < s.endMillis())) {
                if (!expected.isEmpty() && expected.get(expected.size() - 1)[1] == t) {
                    expected.get(expected.size() - 1)[1] = t + 1;
                } else {
                    expected.add(new long[] {t, t + 1});
                }
            }
        }
        assertThat(gaps).as("gaps of [%d, %d) left by %s", from, to, spans).hasSameSizeAs(expected);
        for (int k = 0; k < gaps.size(); k++) {
            assertThat(gaps.get(k)).containsExactly(expected.get(k));
        }
    }
}
