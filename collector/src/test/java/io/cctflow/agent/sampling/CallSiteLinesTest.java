package io.cctflow.agent.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CallSiteLinesTest {
    @Test
    void eachFrameGetsTheLineItsParentWasExecutingAndTheRootGetsZero() {
        int[] lines = {10, 20, 30, 99};

        CallSiteLines.fromExecutingLines(lines, 3);

        assertThat(lines).containsExactly(0, 10, 20, 99);
    }

    @Test
    void unknownLinesBecomeZero() {
        int[] lines = {-1, 7, -1, 5};

        CallSiteLines.fromExecutingLines(lines, 4);

        assertThat(lines).containsExactly(0, 0, 7, 0);
    }

    @Test
    void singleFrameAndEmptyStacks() {
        int[] one = {42};
        CallSiteLines.fromExecutingLines(one, 1);
        assertThat(one).containsExactly(0);

        int[] none = {42};
        CallSiteLines.fromExecutingLines(none, 0);
        assertThat(none).containsExactly(42);
    }
}
