package io.cctflow.graph.read;

import io.cctflow.core.Cct;
import io.cctflow.core.NodeId;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.collect.LongIntMap;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.graph.Keys;
import io.cctflow.graph.StoreStamp;
import io.cctflow.model.NodeRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Value;

/**
 * Reads the topology of the calling context trees (each node's parent, method and line) and the
 * task labels of nodes, and rebuilds a tree from summed window counts ({@link #rebuild}): replays
 * the topology of the nodes that have counts parents first. Each rebuilt node's id is recomputed
 * from its path and checked against the stored one, so a corrupt or colliding topology cannot go
 * unnoticed. Node records are kept in the topology cache: a node's record is a pure function of
 * its id's path and never changes once written, so a cached record cannot go stale.
 *
 * <p>Thread-safe as far as the {@link Driver} is; the caller owns the driver.
 */
public final class TopologyReader {
    /** Ids per query of {@link #nodeTasks}. */
    public static final int READ_CHUNK = 10_000;
    /** Ids per query of {@link #nodes}: each query returns its records as one row of columns. */
    static final int NODE_CHUNK = 50_000;
    /** Node records the default reader keeps in memory (about 100 bytes each). */
    public static final int DEFAULT_TOPOLOGY_CACHE_NODES = 1_000_000;

    private final Reads reads;
    private final TopologyCache topology;

    /** A reader with a topology cache of {@link #DEFAULT_TOPOLOGY_CACHE_NODES}. */
    public TopologyReader(Driver driver, String database) {
        this(driver, database, DEFAULT_TOPOLOGY_CACHE_NODES);
    }

    /** @param topologyCacheNodes most node records kept in memory; 0 turns the topology cache off */
    public TopologyReader(Driver driver, String database, int topologyCacheNodes) {
        this(driver, database, topologyCacheNodes, null);
    }

    /**
     * @param topologyCacheNodes most node records kept in memory; 0 turns the topology cache off
     * @param transactionTimeout each read transaction's timeout; null: the server's default
     */
    public TopologyReader(Driver driver, String database, int topologyCacheNodes, Duration transactionTimeout) {
        this.reads = new Reads(driver, database, transactionTimeout);
        this.topology = new TopologyCache(topologyCacheNodes);
    }

    /**
     * Topology of the given nodes; ids that are not stored (or only as a placeholder parent) are
     * left out. Served from the topology cache where it can be: a node's record is a pure function
     * of its id's path and never changes once written, so a cached record cannot go stale.
     */
    public List<NodeRecord> nodes(Collection<Long> ids) {
        List<NodeRecord> out = new ArrayList<>(ids.size());
        List<Long> missing = new ArrayList<>();
        for (Long id : ids) {
            NodeRecord cached = topology.get(id);
            if (cached != null) {
                out.add(cached);
            } else {
                missing.add(id);
            }
        }
        if (missing.isEmpty()) {
            return out;
        }
        List<NodeRecord> read = new ArrayList<>(missing.size());
        for (int from = 0; from < missing.size(); from += NODE_CHUNK) {
            List<Long> chunk = missing.subList(from, Math.min(missing.size(), from + NODE_CHUNK));
            // one row of columns per chunk: a row per node costs the driver a record (and the
            // server a result row) each, several times the cost of the index seek itself
            read.addAll(reads.read("""
                    UNWIND $ids AS id
                    MATCH (n:CctNode {id: id})
                    WHERE n.depth IS NOT NULL // a placeholder parent not written yet: not stored
                    RETURN collect(n.id) AS id, collect(n.parentId) AS parentId, collect(n.methodId) AS methodId,
                           collect(n.line) AS line, collect(n.depth) AS depth,
                           collect(coalesce(n.recursiveParentId, 0)) AS recursiveParentId
                    """, Reads.params("ids", List.copyOf(chunk)), TopologyReader::toNodes).get(0));
        }
        topology.putAll(read);
        out.addAll(read);
        return out;
    }

    /**
     * The whole counts of projected ones ({@link CountsExpansion}): the topology of their nodes
     * and of every ancestor, from the topology cache where it holds them and otherwise in one
     * query per round (each fetched node brings its whole path).
     *
     * @throws IllegalStateException when a node with counts has no stored topology
     */
    public TreeCounts expand(TreeCounts projected) {
        return expandAll(List.of(projected)).get(0);
    }

    /** {@link #expand} of each, with one topology read for all of them. */
    public List<TreeCounts> expandAll(List<TreeCounts> projected) {
        Map<Long, NodeRecord> known = ancestry(projected);
        List<TreeCounts> out = new ArrayList<>(projected.size());
        for (TreeCounts c : projected) {
            out.add(CountsExpansion.expand(c, known::get));
        }
        return out;
    }

    /**
     * The per-method table of each one's expansion ({@link CountsExpansion#methodSamples}), equal to
     * {@code MethodSamples.of} of {@link #expandAll}'s, with one topology read for all of them and
     * no expansion built: what a comparison of many instances needs.
     */
    public List<MethodSamples> methodSamples(List<TreeCounts> projected) {
        return CountsExpansion.methodSamples(projected, ancestry(projected)::get);
    }

    /** The records of every node of the counts and of its ancestors (the root apart), each id walked once. */
    private Map<Long, NodeRecord> ancestry(List<TreeCounts> counts) {
        LongIntMap seen = new LongIntMap(1024);
        List<Long> start = new ArrayList<>();
        for (TreeCounts c : counts) {
            for (long id : c.nodeIds()) {
                if (seen.get(id) < 0) {
                    seen.put(id, 0);
                    start.add(id);
                }
            }
        }
        Map<Long, NodeRecord> known = new HashMap<>();
        ancestry(start, known);
        return known;
    }

    /**
     * Adds to {@code known} the records of {@code ids} and of all their ancestors (the root apart):
     * walks up through the cache, and reads what it lacks with the whole path above each missing
     * node in one query. Nodes not stored stay absent.
     */
    private void ancestry(List<Long> ids, Map<Long, NodeRecord> known) {
        List<Long> pending = ids;
        for (int round = 0; round < 2 && !pending.isEmpty(); round++) {
            Set<Long> missing = new LinkedHashSet<>(); // once each: the ids of many windows repeat
            for (Long id : pending) {
                long at = id;
                while (at != NodeId.ROOT && !known.containsKey(at)) {
                    NodeRecord r = topology.get(at);
                    if (r == null) {
                        missing.add(at);
                        break;
                    }
                    known.put(at, r);
                    at = r.parentId();
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            List<Long> ask = List.copyOf(missing);
            List<NodeRecord> read = new ArrayList<>();
            for (int from = 0; from < ask.size(); from += NODE_CHUNK) {
                List<Long> chunk = ask.subList(from, Math.min(ask.size(), from + NODE_CHUNK));
                read.addAll(reads.read("""
                        UNWIND $ids AS id
                        MATCH (:CctNode {id: id})<-[:CALLS*0..]-(a:CctNode)
                        WHERE a.depth > 0
                        WITH DISTINCT a
                        RETURN collect(a.id) AS id, collect(a.parentId) AS parentId, collect(a.methodId) AS methodId,
                               collect(a.line) AS line, collect(a.depth) AS depth,
                               collect(coalesce(a.recursiveParentId, 0)) AS recursiveParentId
                        """, Reads.params("ids", List.copyOf(chunk)), TopologyReader::toNodes).get(0));
            }
            topology.putAll(read);
            for (NodeRecord r : read) {
                known.put(r.id(), r);
            }
            pending = ask; // a second round walks from them through what was read
        }
    }

    /**
     * The stored depth of a node (1 for a thread root frame), or -1 when the node is not stored
     * (or only as a placeholder parent). Served from the topology cache where it can be.
     */
    public int depth(long nodeId) {
        List<NodeRecord> found = nodes(List.of(nodeId));
        return found.isEmpty() ? -1 : found.get(0).depth();
    }

    /**
     * Decodes a calling context (seed 004: the stored parent id keeps every path decodable): the
     * records of the node and of every ancestor but the virtual root, outermost frame first; empty
     * when the node is not stored. One query, following the single incoming {@code CALLS} edge of
     * each node up to the root. Each record's id is recomputed from its parent's id, method and
     * line ({@link NodeId#child}), so a corrupt or colliding topology cannot go unnoticed.
     *
     * @param maxDepth the deepest path the caller accepts; a deeper stored node is an {@link
     *     IllegalArgumentException} naming its depth, before its path is read
     */
    public List<NodeRecord> path(long nodeId, int maxDepth) {
        int depth = depth(nodeId);
        if (depth < 0) {
            return List.of();
        }
        if (depth > maxDepth) {
            throw new IllegalArgumentException("node " + Long.toUnsignedString(nodeId) + " is " + depth
                    + " frames deep, more than " + maxDepth);
        }
        List<NodeRecord> path = new ArrayList<>(reads.read("""
                MATCH (n:CctNode {id: $id})<-[:CALLS*0..]-(a:CctNode)
                WHERE a.depth > 0
                RETURN collect(a.id) AS id, collect(a.parentId) AS parentId, collect(a.methodId) AS methodId,
                       collect(a.line) AS line, collect(a.depth) AS depth,
                       collect(coalesce(a.recursiveParentId, 0)) AS recursiveParentId
                """, Reads.params("id", nodeId), TopologyReader::toNodes).get(0));
        path.sort(Comparator.comparingInt(NodeRecord::depth));
        long parent = NodeId.ROOT;
        for (int i = 0; i < path.size(); i++) {
            NodeRecord n = path.get(i);
            if (n.depth() != i + 1 || n.parentId() != parent || NodeId.child(parent, n.methodId(), n.line()) != n.id()) {
                throw new IllegalStateException("stored path of node " + Long.toUnsignedString(nodeId)
                        + " is broken at depth " + (i + 1) + ": " + n);
            }
            parent = n.id();
        }
        if (path.size() != depth || parent != nodeId) {
            throw new IllegalStateException("stored path of node " + Long.toUnsignedString(nodeId) + " has "
                    + path.size() + " frames but the node is " + depth + " deep");
        }
        return path;
    }

    /**
     * The node records of one {@link #nodes} query: parallel columns of one row. A node outside any
     * recursion stores no {@code recursiveParentId}; the queries {@code coalesce} it to 0, {@link
     * NodeRecord#NO_RECURSIVE_PARENT}.
     */
    private static List<NodeRecord> toNodes(Record r) {
        long[] id = Reads.longs(r.get("id"));
        long[] parent = Reads.longs(r.get("parentId"));
        long[] method = Reads.longs(r.get("methodId"));
        long[] line = Reads.longs(r.get("line"));
        long[] depth = Reads.longs(r.get("depth"));
        long[] recursive = Reads.longs(r.get("recursiveParentId"));
        if (parent.length != id.length || method.length != id.length || line.length != id.length
                || depth.length != id.length || recursive.length != id.length) {
            // collect() skips nulls, so a node missing a property would shift the columns
            throw new IllegalStateException("stored CCT nodes lack topology properties (" + id.length + " ids, "
                    + parent.length + " parents, " + method.length + " methods, " + line.length + " lines, "
                    + depth.length + " depths, " + recursive.length + " recursive parents)");
        }
        List<NodeRecord> out = new ArrayList<>(id.length);
        for (int i = 0; i < id.length; i++) {
            out.add(new NodeRecord(id[i], parent[i], method[i], (int) line[i], (int) depth[i], recursive[i]));
        }
        return out;
    }

    /**
     * The version now of the stored task labels ({@link StoreStamp#TASK_LABELS}): changed by
     * every write of {@link #nodeTasks}' labels, null when none was written since stamps exist.
     * Read before the labels, it names what an answer over them was computed from.
     */
    public String taskLabelsVersion() {
        return reads.stamp(StoreStamp.TASK_LABELS);
    }

    /**
     * The tasks each of {@code nodeIds} is a root of for {@code service} ({@link
     * io.cctflow.model.NodeTasks}), sorted; other nodes are absent. A node carries the tasks
     * of the roots on its path. Reads in chunks, so a million ids are fine.
     *
     * @param service not null: labels are per (service, node)
     */
    public Map<Long, List<String>> nodeTasks(String service, Collection<Long> nodeIds) {
        Objects.requireNonNull(service, "service");
        List<String> keys = new ArrayList<>(nodeIds.size());
        for (long id : nodeIds) {
            keys.add(Keys.nodeTasks(service, id));
        }
        Map<Long, List<String>> tasks = new HashMap<>();
        for (int from = 0; from < keys.size(); from += READ_CHUNK) {
            List<String> chunk = List.copyOf(keys.subList(from, Math.min(keys.size(), from + READ_CHUNK)));
            for (Map.Entry<Long, List<String>> e : reads.read("""
                    UNWIND $keys AS k
                    MATCH (t:NodeTasks {key: k})
                    RETURN t.nodeId AS nodeId, t.tasks AS tasks
                    """, Reads.params("keys", chunk),
                    r -> Map.entry(r.get("nodeId").asLong(), r.get("tasks").asList(Value::asString)))) {
                if (!e.getValue().isEmpty()) {
                    tasks.put(e.getKey(), e.getValue());
                }
            }
        }
        return tasks;
    }

    /** The tree of summed counts: topology read for the nodes that have counts, per-thread counts included. */
    public Cct rebuild(TreeCounts sum) {
        long[] ids = sum.nodeIds();
        LongIntMap rowOf = new LongIntMap(ids.length); // id -> its row in sum, no boxing of counts
        List<Long> keys = new ArrayList<>(ids.length);
        for (int i = 0; i < ids.length; i++) {
            rowOf.put(ids[i], i);
            keys.add(ids[i]);
        }
        List<NodeRecord> nodes = byDepth(nodes(keys));
        Cct tree = new Cct(nodes.size() + 1);
        int rootRow = rowOf.get(NodeId.ROOT);
        if (rootRow >= 0) {
            tree.addCounts(Cct.ROOT, sum.self()[rootRow], sum.total()[rootRow]);
        }
        for (NodeRecord n : nodes) {
            if (n.id() == NodeId.ROOT) {
                continue;
            }
            int parent = tree.indexOf(n.parentId());
            if (parent < 0) {
                throw new IllegalStateException("stored node " + n.id() + " has counts but its parent "
                        + n.parentId() + " has none: the stored windows are inconsistent");
            }
            int node = tree.child(parent, n.methodId(), n.line());
            if (tree.id(node) != n.id()) {
                throw new IllegalStateException("stored node " + n.id() + " does not match its path (recomputed "
                        + tree.id(node) + ")");
            }
            int row = rowOf.get(n.id());
            tree.addCounts(node, sum.self()[row], sum.total()[row]);
        }
        for (int e = 0; e < sum.threadNodeIds().length; e++) {
            int node = tree.indexOf(sum.threadNodeIds()[e]);
            String name = sum.threadName(sum.threadIds()[e]);
            if (node < 0 || name == null) {
                throw new IllegalStateException("stored thread counts of node " + sum.threadNodeIds()[e]
                        + " name " + (node < 0 ? "a node without counts" : "no thread in the dictionary"));
            }
            tree.addThreadSelf(node, tree.thread(name), sum.threadSelf()[e]);
        }
        return tree;
    }

    /** The records ordered by depth, parents before children, order within a depth kept (counting sort). */
    private static List<NodeRecord> byDepth(List<NodeRecord> nodes) {
        int maxDepth = 0;
        for (NodeRecord n : nodes) {
            maxDepth = Math.max(maxDepth, n.depth());
        }
        if (maxDepth > nodes.size()) { // deeper than there are nodes: a corrupt record; the loop reports it
            List<NodeRecord> sorted = new ArrayList<>(nodes);
            sorted.sort(Comparator.comparingInt(NodeRecord::depth));
            return sorted;
        }
        int[] start = new int[maxDepth + 2];
        for (NodeRecord n : nodes) {
            start[n.depth() + 1]++;
        }
        for (int d = 0; d <= maxDepth; d++) {
            start[d + 1] += start[d];
        }
        NodeRecord[] out = new NodeRecord[nodes.size()];
        for (NodeRecord n : nodes) {
            out[start[n.depth()]++] = n;
        }
        return Arrays.asList(out);
    }
}
