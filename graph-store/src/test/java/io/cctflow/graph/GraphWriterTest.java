package io.cctflow.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.MethodId;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.NodeId;
import io.cctflow.graph.write.WindowContribution;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GraphWriterTest extends CleanGraph {
    private static final ExecutionId EXEC = new ExecutionId("svc", "v1", "i-1");

    /** Writes the topology and one window of {@code tree}, as the samples job would. */
    private static void write(Cct tree, long windowStart) {
        writer.writeInstances(List.of(new InstanceRecord("svc", "v1", "i-1", "h", 1, 0, Map.of("zone", "a"),
                windowStart, windowStart + 60_000)));
        writer.writeMethods(List.of(MethodRecord.of("A", "main", "()V"), MethodRecord.of("A", "f", "()V")));
        writeTopology(tree);
        writer.writeWindowCounts(List.of(new WindowCounts(EXEC.key(), windowStart, windowStart + 60_000,
                TreeCounts.of(tree), new TruncationCounts(4, 3, 2, 1))));
    }

    private static Cct sample() {
        long main = MethodId.of("A", "main", "()V");
        long f = MethodId.of("A", "f", "()V");
        Cct tree = new Cct();
        tree.addStack(new long[] {main, f, f}, new int[] {0, 3, 4}, 3, tree.thread("pool-1-thread-1"), 5);
        tree.addStack(new long[] {main, f}, new int[] {0, 3}, 2, tree.thread("main"), 2);
        tree.addStack(new long[] {main}, new int[] {0}, 1, 1);
        return tree;
    }

    @Test
    void replayedWritesLeaveTheSameGraph() {
        Cct tree = sample();
        write(tree, 0);
        write(tree, 0); // a replay after a failure
        Cct loaded = load(List.of(EXEC.key()), 0, 60_000);

        assertThat(loaded.size()).isEqualTo(tree.size());
        for (int n = 0; n < tree.size(); n++) {
            int m = loaded.indexOf(tree.id(n));
            assertThat(new long[] {loaded.self(m), loaded.total(m)}).containsExactly(tree.self(n), tree.total(n));
            for (int t = 0; t < tree.threads(); t++) {
                assertThat(loaded.selfOnThread(m, loaded.thread(tree.threadName(t)))).isEqualTo(tree.selfOnThread(n, t));
            }
        }
        assertThat(windows.windows(List.of(EXEC.key()), 0, 60_000)).singleElement()
                .isEqualTo(new WindowCounts(EXEC.key(), 0, 60_000, TreeCounts.of(tree), new TruncationCounts(4, 3, 2, 1)));
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (n:CctNode) RETURN count(n) AS c").single().get("c").asLong())
                    .isEqualTo(tree.size()); // root + 3 nodes, none duplicated
            assertThat(session.run("MATCH (:CctNode)-[c:CALLS]->(:CctNode) RETURN count(c) AS c").single()
                    .get("c").asLong()).isEqualTo(tree.size() - 1);
            assertThat(session.run("MATCH (w:Window) RETURN count(w) AS c").single().get("c").asLong()).isEqualTo(1);
        }
    }

    @Test
    void windowsOutsideTheRangeAreNotRead() {
        write(sample(), 0);
        write(sample(), 60_000);
        assertThat(load(List.of(EXEC.key()), 0, 120_000).total(Cct.ROOT)).isEqualTo(16);
        assertThat(load(List.of(EXEC.key()), 60_000, 120_000).total(Cct.ROOT)).isEqualTo(8);
        assertThat(load(List.of(EXEC.key()), 120_000, 180_000).size()).isEqualTo(1);
        InstanceRecord instance = catalogue.instances("svc").get(0);
        assertThat(instance.firstSampleMillis()).isZero();
        assertThat(instance.lastSampleMillis()).isEqualTo(120_000);
        assertThat(instance.labels()).containsEntry("zone", "a");
        assertThat(catalogue.methods("A", "f", null)).extracting(MethodRecord::signature).containsExactly("A.f()V");
        assertThat(NodeId.ROOT).isEqualTo(load(List.of(EXEC.key()), 0, 1).id(Cct.ROOT));
    }

    /**
     * Nodes written children first, in separate calls, in any order and repeatedly, leave the same
     * graph as one write parents first: every property set, one CALLS edge into every node but the
     * root, one OF_METHOD edge out of each. Only the node in a recursion stores its recursive
     * parent; the others read back with none. Methods store no signature (it is derived).
     */
    @Test
    void nodesWrittenChildrenFirstAndAgainCompleteTheirPlaceholderParents() {
        Cct tree = sample();
        Map<Long, NodeRecord> records = RandomTrees.topology(tree);
        List<NodeRecord> nodes = new ArrayList<>();
        for (int i = 1; i < tree.size(); i++) {
            nodes.add(records.get(tree.id(i))); // parents first
        }
        assertThat(nodes).filteredOn(n -> n.recursiveParentId() != NodeRecord.NO_RECURSIVE_PARENT).hasSize(1);
        writer.writeMethods(List.of(MethodRecord.of("A", "main", "()V"), MethodRecord.of("A", "f", "()V")));
        for (int i = nodes.size() - 1; i >= 0; i--) {
            writer.writeNodes(List.of(nodes.get(i)));
        }
        writer.writeNodes(nodes);
        writer.writeNodes(List.of(nodes.get(0), nodes.get(0)));

        assertThat(topology.nodes(nodes.stream().map(NodeRecord::id).toList()))
                .containsExactlyInAnyOrderElementsOf(nodes);
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (n:CctNode) RETURN count(n) AS c").single().get("c").asLong())
                    .isEqualTo(tree.size());
            assertThat(session.run("""
                    MATCH (p:CctNode)-[c:CALLS]->(n:CctNode)
                    WHERE n.parentId = p.id AND size(keys(c)) = 0
                    RETURN count(c) AS c""").single().get("c").asLong()).isEqualTo(nodes.size());
            assertThat(session.run("MATCH (n:CctNode) WHERE n.depth > 0 AND n.recursiveParentId IS NOT NULL RETURN collect(n.id) AS c")
                    .single().get("c").asList(v -> v.asLong())).containsExactlyElementsOf(nodes.stream()
                            .filter(n -> n.recursiveParentId() != NodeRecord.NO_RECURSIVE_PARENT).map(NodeRecord::id).toList());
            assertThat(session.run("MATCH ()-[c:CALLS]->() RETURN count(c) AS c").single().get("c").asLong())
                    .isEqualTo(nodes.size());
            assertThat(session.run("""
                    MATCH (n:CctNode)-[:OF_METHOD]->(m:Method) WHERE m.id = n.methodId
                    RETURN count(*) AS c""").single().get("c").asLong()).isEqualTo(nodes.size());
            // the signature is derived, not stored
            assertThat(session.run("MATCH (m:Method) RETURN keys(m) AS k").list(r -> r.get("k").asList(v -> v.asString())))
                    .hasSize(2).allSatisfy(k -> assertThat(k).containsExactlyInAnyOrder("id", "className", "name", "descriptor"));
        }
    }

    /**
     * A window of the layout before {@link PackedWindow} (one packed property per column) is still
     * read; one whose per-method table comes from another write than its per-node tables (as a
     * read during a rewrite can see it) adds up like a whole one, self by node and by thread; the
     * checksum written with the window refuses it. The splice here is permanent, so every
     * repeated read sees it.
     */
    @Test
    void aWindowWithAnotherWritesMethodTableIsRefused() {
        TreeCounts small = TreeCounts.of(wideTree(300, 1));
        TreeCounts large = TreeCounts.of(wideTree(2_000, 2));
        writeOneWindow(large);
        storeAsColumns(large);
        assertThat(windows.windows(List.of(EXEC.key()), 0, 60_000)).singleElement()
                .extracting(WindowCounts::counts).isEqualTo(large);
        try (var session = driver.session()) {
            session.run("MATCH (w:Window) SET w.methodSamples = $samples, w.methodSelf = $self",
                    Map.of("samples", PackedLongs.pack(small.methodSamples()),
                            "self", PackedLongs.pack(small.methodSelf()))).consume();
        }

        assertThatThrownBy(() -> windows.windows(List.of(EXEC.key()), 0, 60_000))
                .hasMessageContaining("do not match the checksum written with them");
    }

    /**
     * A window's packed counts ({@link PackedWindow}) are one property, but a read during a rewrite
     * can still take them from another write than the checksum: refused.
     */
    @Test
    void packedCountsOfAnotherWriteAreRefused() {
        TreeCounts small = TreeCounts.of(wideTree(300, 1));
        TreeCounts large = TreeCounts.of(wideTree(2_000, 2));
        writeOneWindow(large);
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (w:Window) RETURN w.nodeIds IS NULL AND w.counts IS NOT NULL AS packed")
                    .single().get("packed").asBoolean()).isTrue();
            session.run("MATCH (w:Window) SET w.counts = $counts", Map.of("counts", PackedWindow.pack(small))).consume();
        }

        assertThatThrownBy(() -> windows.windows(List.of(EXEC.key()), 0, 60_000))
                .hasMessageContaining("do not match the checksum written with them");
    }

    /**
     * The samples job rewrites open windows while queries read them: every read returns one of the
     * versions written whole (a read that saw half of a rewrite is repeated), never a mix or an
     * error.
     */
    @Test
    void windowsReadWhileRewrittenComeBackWhole() throws Exception {
        TreeCounts small = TreeCounts.of(wideTree(300, 1));
        TreeCounts large = TreeCounts.of(wideTree(2_000, 2));
        writeOneWindow(small);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread rewriter = new Thread(() -> {
            for (int i = 0; !stop.get() && i < 2_000; i++) {
                writer.writeWindowCounts(List.of(new WindowCounts(EXEC.key(), 0, 60_000, i % 2 == 0 ? large : small,
                        TruncationCounts.NONE)));
            }
        }, "rewriter");
        rewriter.start();
        try {
            for (int i = 0; i < 300; i++) {
                assertThat(windows.windows(List.of(EXEC.key()), 0, 60_000)).singleElement()
                        .extracting(WindowCounts::counts).isIn(small, large);
            }
        } finally {
            stop.set(true);
            rewriter.join();
        }
    }

    /** Writes instance i-1 of svc v1 and its one window, [0, 60 s), holding {@code counts}, and the wide trees' topology. */
    private void writeOneWindow(TreeCounts counts) {
        writeTopology(wideTree(2_000, 1));
        writer.writeInstances(List.of(new InstanceRecord("svc", "v1", "i-1", "h", 1, 0, Map.of(), 0, 60_000)));
        writer.writeWindowCounts(List.of(new WindowCounts(EXEC.key(), 0, 60_000, counts, TruncationCounts.NONE)));
    }

    /**
     * Rewrites the one stored window in the layout before {@link PackedWindow}, as older versions
     * wrote it: whole tables, and the checksum over them.
     */
    private void storeAsColumns(TreeCounts c) {
        try (var session = driver.session()) {
            session.run("""
                    MATCH (w:Window) REMOVE w.counts
                    SET w.checksum = $checksum, w.nodeIds = $nodeIds, w.self = $self, w.total = $total, w.threadNodeIds = $threadNodeIds,
                        w.threadIds = $threadIds, w.threadSelf = $threadSelf, w.threadDictIds = $threadDictIds,
                        w.threadDictNames = $threadDictNames, w.methodIds = $methodIds,
                        w.methodSamples = $methodSamples, w.methodSelf = $methodSelf""",
                    Map.ofEntries(Map.entry("checksum", WindowChecksum.of(c, TruncationCounts.NONE)),
                            Map.entry("nodeIds", PackedLongs.pack(c.nodeIds())),
                            Map.entry("self", PackedLongs.pack(c.self())),
                            Map.entry("total", PackedLongs.pack(c.total())),
                            Map.entry("threadNodeIds", PackedLongs.pack(c.threadNodeIds())),
                            Map.entry("threadIds", PackedLongs.pack(c.threadIds())),
                            Map.entry("threadSelf", PackedLongs.pack(c.threadSelf())),
                            Map.entry("threadDictIds", PackedLongs.pack(c.threadDictIds())),
                            Map.entry("threadDictNames", List.of(c.threadDictNames())),
                            Map.entry("methodIds", PackedLongs.pack(c.methodIds())),
                            Map.entry("methodSamples", PackedLongs.pack(c.methodSamples())),
                            Map.entry("methodSelf", PackedLongs.pack(c.methodSelf())))).consume();
        }
    }

    /**
     * A window stored in the layout before gains contributions like any window (it holds no batch
     * ids, so each is added once) and is written back packed, equal to the brute-force sum.
     */
    @Test
    void aWindowOfTheLayoutBeforeGainsContributionsAndIsRewrittenPacked() {
        TreeCounts small = TreeCounts.of(wideTree(300, 1));
        TreeCounts large = TreeCounts.of(wideTree(2_000, 2));
        writeOneWindow(large);
        storeAsColumns(large);
        WindowContribution added = new WindowContribution(
                new WindowCounts(EXEC.key(), 0, 60_000, small, new TruncationCounts(1, 0, 0, 0)), 42);

        writer.addContributions(List.of(added));
        writer.addContributions(List.of(added));

        assertThat(windows.windows(List.of(EXEC.key()), 0, 60_000)).singleElement()
                .isEqualTo(new WindowCounts(EXEC.key(), 0, 60_000, large.plus(small), new TruncationCounts(1, 0, 0, 0)));
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (w:Window) RETURN w.nodeIds IS NULL AND w.methodIds IS NULL"
                    + " AND w.counts IS NOT NULL AS packed").single().get("packed").asBoolean()).isTrue();
        }
    }

    /** A root with {@code width} leaves under one method, on two threads, {@code weight} samples each. */
    private static Cct wideTree(int width, int weight) {
        long main = MethodId.of("A", "main", "()V");
        long f = MethodId.of("A", "f", "()V");
        Cct tree = new Cct();
        for (int i = 0; i < width; i++) {
            tree.addStack(new long[] {main, f}, new int[] {0, i + 1}, 2, tree.thread(i % 2 == 0 ? "main" : "worker"),
                    weight);
        }
        return tree;
    }
}
