package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class NodeIdTest {
    /**
     * {@link NodeId#leafParents} (four stacks side by side) against folding {@link NodeId#child} over
     * each stack alone: random batches of 0 to 12 stacks of 0 to 90 frames (lanes that run dry, stacks
     * of one frame or none), over a dictionary with repeated methods.
     */
    @Property(tries = 300)
    void leafParentsAreTheFoldedIdsOfEachStackAboveItsLeaf(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 12) int stacks) {
        Random random = new Random(seed);
        long[] methodIds = new long[1 + random.nextInt(20)];
        for (int m = 0; m < methodIds.length; m++) {
            methodIds[m] = random.nextLong();
        }
        int[] starts = new int[stacks + 1 + random.nextInt(3)]; // longer than needed, as a reused array is
        int[] depths = new int[stacks];
        for (int s = 0; s < stacks; s++) {
            depths[s] = random.nextInt(4) == 0 ? random.nextInt(2) : random.nextInt(91);
            starts[s + 1] = starts[s] + depths[s];
        }
        int frameCount = starts[stacks];
        int[] frames = new int[frameCount + random.nextInt(5)];
        int[] lines = new int[frames.length];
        for (int f = 0; f < frames.length; f++) {
            frames[f] = random.nextInt(methodIds.length);
            lines[f] = random.nextInt(3) - 1;
        }
        long[] out = new long[stacks];

        NodeId.leafParents(frames, lines, methodIds, starts, stacks, out);

        for (int s = 0; s < stacks; s++) {
            long expected = NodeId.ROOT;
            for (int f = starts[s]; f < starts[s] + depths[s] - 1; f++) {
                expected = NodeId.child(expected, methodIds[frames[f]], lines[f]);
            }
            assertThat(out[s]).as("stack %d of %d frames", s, depths[s]).isEqualTo(expected);
        }
    }
}
