package io.cctflow.flink.cct;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.flink.state.StoredNodes;
import io.cctflow.flink.state.StoredNodesProperties;
import io.cctflow.model.NodeRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class InstanceTreesTest {
    @Test
    void readsAKeysStoredChunksOnlyWhenItsTreeIsNotCached() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        InstanceTrees.StoredChunks none = () -> {
            reads.incrementAndGet();
            return List.of();
        };
        InstanceTrees trees = new InstanceTrees(1);

        InstanceTrees.Entry a = trees.get("a", none, none);
        assertThat(trees.get("a", none, none)).isSameAs(a);
        assertThat(reads).as("both lists read for the miss, none for the hit").hasValue(2);

        trees.get("b", none, none); // capacity 1: evicts a
        assertThat(trees.get("a", none, none)).isNotSameAs(a);
        assertThat(reads).hasValue(6);
    }

    /**
     * A job restored from a savepoint of the first form: the tree is rebuilt from the 32-byte nodes
     * (stored in any order), grows, and its new nodes go into chunks of the current form; rebuilt
     * again from both, it is the same tree node for node (index, id, parent, method, line), and it
     * is marked for rewriting until the caller clears the mark.
     */
    @Property(tries = 200)
    void aTreeOfTheFirstFormAndChunksWrittenSinceRebuildsAsItWas(@ForAll long seed) throws Exception {
        Random random = new Random(seed);
        Cct original = Cct.topologyOnly(16);
        StoredNodesProperties.grow(original, random, 1 + random.nextInt(40));
        List<NodeRecord> records = new ArrayList<>();
        for (int n = 1; n < original.size(); n++) {
            records.add(new NodeRecord(original.id(n), original.id(original.parent(n)), original.method(n),
                    original.callSiteLine(n), original.depth(n), NodeRecord.NO_RECURSIVE_PARENT));
        }
        Collections.shuffle(records, random);
        int cut = random.nextInt(records.size() + 1);
        List<byte[]> legacy = List.of(StoredNodes.Legacy.encode(records.subList(0, cut)),
                StoredNodes.Legacy.encode(records.subList(cut, records.size())));

        InstanceTrees.Entry restored = new InstanceTrees(1).get("k", () -> legacy, List::of);
        assertThat(restored.tree().size()).isEqualTo(original.size());
        assertThat(restored.legacy).isTrue();
        List<byte[]> chunks = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            int before = restored.tree().size();
            StoredNodesProperties.grow(restored.tree(), random, random.nextInt(20));
            if (restored.tree().size() > before) {
                chunks.add(StoredNodes.encode(restored.tree(), before, restored.tree().size()));
            }
        }

        InstanceTrees.Entry again = new InstanceTrees(1).get("k", () -> legacy, () -> chunks);
        StoredNodesProperties.assertSameTree(again.tree(), restored.tree());
        assertThat(again.storedChunks).isEqualTo(chunks.size());
        InstanceTrees.Entry rewritten = new InstanceTrees(1).get("k", List::of,
                () -> List.of(StoredNodes.encode(again.tree(), 1, again.tree().size())));
        StoredNodesProperties.assertSameTree(rewritten.tree(), restored.tree());
        assertThat(rewritten.legacy).isFalse();
    }
}
