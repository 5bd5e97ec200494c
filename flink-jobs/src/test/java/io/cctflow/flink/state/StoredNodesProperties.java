package io.cctflow.flink.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.core.Cct;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link StoredNodes} against the tree it was taken from, on random trees (random paths over a
 * few methods, lines of any sign and size, up to 30 frames deep) cut into random chunks: the chunks
 * decoded into an empty tree, in order, give the same tree node for node (index, id, parent,
 * method, line, depth, recursive parent); a chunk cut short, or one that does not continue the
 * tree, is an error and not a different tree.
 */
public class StoredNodesProperties {

    @Property(tries = 300)
    void chunksDecodedInOrderRebuildTheTreeNodeForNode(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 200) int paths, @ForAll @IntRange(min = 1, max = 6) int chunkCount) {
        Random random = new Random(seed);
        Cct tree = Cct.topologyOnly(16);
        List<byte[]> chunks = new ArrayList<>();
        int from = 1;
        for (int c = 0; c < chunkCount; c++) {
            grow(tree, random, paths / chunkCount + (c == 0 ? paths % chunkCount : 0));
            if (tree.size() > from || random.nextBoolean()) { // an empty chunk is valid too
                chunks.add(StoredNodes.encode(tree, from, tree.size()));
            }
            from = tree.size();
        }

        Cct rebuilt = Cct.topologyOnly(16);
        int added = 0;
        for (byte[] chunk : chunks) {
            added += StoredNodes.decodeInto(chunk, rebuilt);
        }
        assertThat(added).isEqualTo(tree.size() - 1);
        assertSameTree(rebuilt, tree);
        // compacted: the whole tree as one chunk
        Cct fromOne = Cct.topologyOnly(16);
        StoredNodes.decodeInto(StoredNodes.encode(tree, 1, tree.size()), fromOne);
        assertSameTree(fromOne, tree);
    }

    @Property(tries = 200)
    void aDamagedChunkOrOneThatDoesNotContinueTheTreeIsAnError(@ForAll long seed) {
        Random random = new Random(seed);
        Cct tree = Cct.topologyOnly(16);
        grow(tree, random, 1 + random.nextInt(30));
        byte[] chunk = StoredNodes.encode(tree, 1, tree.size());
        int cut = random.nextInt(chunk.length);
        assertThatThrownBy(() -> StoredNodes.decodeInto(Arrays.copyOf(chunk, cut), Cct.topologyOnly(16)))
                .as("cut at %d of %d", cut, chunk.length)
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("chunk of nodes in state");
        byte[] longer = Arrays.copyOf(chunk, chunk.length + 1);
        assertThatThrownBy(() -> StoredNodes.decodeInto(longer, Cct.topologyOnly(16)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("after the last node");

        Cct twice = Cct.topologyOnly(16);
        StoredNodes.decodeInto(chunk, twice);
        assertThatThrownBy(() -> StoredNodes.decodeInto(chunk, twice))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("does not continue its tree");
    }

    /** Adds {@code paths} random root-to-leaf paths (over 6 methods, most lines small, some of any int). */
    public static void grow(Cct tree, Random random, int paths) {
        for (int p = 0; p < paths; p++) {
            int node = Cct.ROOT;
            for (int depth = 1 + random.nextInt(30); depth > 0; depth--) {
                long method = 0x1000L * (1 + random.nextInt(6)) ^ (random.nextBoolean() ? Long.MIN_VALUE : 0);
                int line = random.nextInt(10) == 0 ? random.nextInt() : random.nextInt(4) - 1;
                node = tree.child(node, method, line);
            }
        }
    }

    public static void assertSameTree(Cct actual, Cct expected) {
        assertThat(actual.size()).isEqualTo(expected.size());
        for (int n = 0; n < expected.size(); n++) {
            assertThat(actual.id(n)).as("id of %d", n).isEqualTo(expected.id(n));
            assertThat(actual.parent(n)).as("parent of %d", n).isEqualTo(expected.parent(n));
            assertThat(actual.method(n)).as("method of %d", n).isEqualTo(expected.method(n));
            assertThat(actual.callSiteLine(n)).as("line of %d", n).isEqualTo(expected.callSiteLine(n));
            assertThat(actual.depth(n)).as("depth of %d", n).isEqualTo(expected.depth(n));
            assertThat(actual.recursiveParent(n)).as("recursive parent of %d", n).isEqualTo(expected.recursiveParent(n));
        }
    }
}
