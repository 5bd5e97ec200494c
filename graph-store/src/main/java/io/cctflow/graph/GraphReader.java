package io.cctflow.graph;

import io.cctflow.core.MethodId;
import io.cctflow.graph.model.InstanceRecord;
import io.cctflow.graph.model.MethodRecord;
import io.cctflow.graph.model.NodeRecord;
import io.cctflow.graph.model.TaskDefinitionRecord;
import io.cctflow.core.task.MatchType;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.model.TruncationCounts;
import io.cctflow.graph.model.WindowCounts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

/**
 * The read queries. Every query takes parameters; none is built from user input.
 *
 * <p>Thread-safe as far as the {@link Driver} is; the caller owns the driver.
 */
public final class GraphReader {
    /** Ids per query of {@link #nodeTasks}. */
    static final int READ_CHUNK = 10_000;
    /** Node records the default reader keeps in memory (about 100 bytes each). */
    public static final int DEFAULT_TOPOLOGY_CACHE_NODES = 1_000_000;

    private final Driver driver;
    private final String database;
    private final TopologyCache topology;

    public GraphReader(Driver driver, String database) {
        this(driver, database, DEFAULT_TOPOLOGY_CACHE_NODES);
    }

    /** @param topologyCacheNodes most node records kept in memory; 0 turns the cache off */
    public GraphReader(Driver driver, String database, int topologyCacheNodes) {
        this.driver = driver;
        this.database = database;
        this.topology = new TopologyCache(topologyCacheNodes);
    }

    /** Instances of one service, or of all services when {@code service} is null. */
    public List<InstanceRecord> instances(String service) {
        return read("""
                MATCH (i:Instance)
                WHERE $service IS NULL OR i.service = $service
                RETURN i ORDER BY i.service, i.version, i.instanceId
                """, params("service", service), r -> toInstance(r.get("i")));
    }

    /** All overloads of {@code className.methodName}, or the one with {@code descriptor} if given. */
    public List<MethodRecord> methods(String className, String methodName, String descriptor) {
        return read("""
                MATCH (m:Method {className: $className, name: $name})
                WHERE $descriptor IS NULL OR m.descriptor = $descriptor
                RETURN m.id AS id, m.className AS className, m.name AS name, m.descriptor AS descriptor
                ORDER BY m.descriptor
                """,
                params("className", className, "name", methodName, "descriptor", descriptor),
                r -> new MethodRecord(r.get("id").asLong(), r.get("className").asString(),
                        r.get("name").asString(), r.get("descriptor").asString()));
    }

    /** Signatures ({@code Class.name(descriptor)}) of the given method ids; ids not stored are left out. */
    public Map<Long, String> signatures(Collection<Long> methodIds) {
        Map<Long, String> out = new HashMap<>();
        for (MethodRecord m : read("""
                UNWIND $ids AS id
                MATCH (m:Method {id: id})
                RETURN m.id AS id, m.className AS className, m.name AS name, m.descriptor AS descriptor
                """, params("ids", List.copyOf(methodIds)),
                r -> new MethodRecord(r.get("id").asLong(), r.get("className").asString(),
                        r.get("name").asString(), r.get("descriptor").asString()))) {
            out.put(m.id(), m.signature());
        }
        return out;
    }

    /**
     * The bytecode fingerprints of a deployment's methods, keyed by signature exactly as
     * {@link MethodRecord#signature()} builds it ({@code className + "." + methodName + descriptor});
     * empty when no code manifest of the deployment was stored.
     */
    public Map<String, Long> methodFingerprints(String service, String version) {
        Map<String, Long> out = new HashMap<>();
        read("""
                MATCH (:Deployment {key: $deployment})-[:HAS_CODE]->(c:CodeClass)
                RETURN c.className AS className, c.methodNames AS names, c.descriptors AS descriptors,
                       c.fingerprints AS fingerprints
                """, params("deployment", Keys.deployment(service, version)), r -> {
                    String className = r.get("className").asString();
                    Value names = r.get("names");
                    Value descriptors = r.get("descriptors");
                    Value fingerprints = r.get("fingerprints");
                    for (int i = 0; i < names.size(); i++) {
                        out.put(MethodId.signature(className, names.get(i).asString(), descriptors.get(i).asString()),
                                fingerprints.get(i).asLong());
                    }
                    return className;
                });
        return out;
    }

    /** Windows of the given executions that overlap [fromMillis, toMillis). */
    public List<WindowCounts> windows(Collection<String> executionKeys, long fromMillis, long toMillis) {
        return read("""
                MATCH (w:Window)
                WHERE w.instance IN $keys AND w.start < $to AND w.end > $from
                RETURN w.instance AS instance, w.start AS start, w.end AS end,
                       w.nodeIds AS nodeIds, w.self AS self, w.total AS total,
                       w.threadNodeIds AS threadNodeIds, w.threadIds AS threadIds, w.threadSelf AS threadSelf,
                       w.threadDictIds AS threadDictIds, w.threadDictNames AS threadDictNames,
                       w.methodIds AS methodIds, w.methodSamples AS methodSamples, w.methodSelf AS methodSelf,
                       w.truncatedMerged AS truncatedMerged, w.truncatedPending AS truncatedPending,
                       w.truncatedAmbiguous AS truncatedAmbiguous, w.truncatedExpired AS truncatedExpired
                """,
                params("keys", List.copyOf(executionKeys), "from", fromMillis, "to", toMillis),
                r -> new WindowCounts(r.get("instance").asString(), r.get("start").asLong(), r.get("end").asLong(),
                        TreeCounts.of(longs(r.get("nodeIds")), longs(r.get("self")), longs(r.get("total")),
                                longs(r.get("threadNodeIds")), longs(r.get("threadIds")), longs(r.get("threadSelf")),
                                longs(r.get("threadDictIds")), strings(r.get("threadDictNames")),
                                longs(r.get("methodIds")), longs(r.get("methodSamples")), longs(r.get("methodSelf"))),
                        new TruncationCounts(r.get("truncatedMerged").asLong(0), r.get("truncatedPending").asLong(0),
                                r.get("truncatedAmbiguous").asLong(0), r.get("truncatedExpired").asLong(0))));
    }

    /** Methods by id; ids that are not stored are left out. */
    public List<MethodRecord> methodsById(Collection<Long> ids) {
        return read("""
                UNWIND $ids AS id
                MATCH (m:Method {id: id})
                RETURN m.id AS id, m.className AS className, m.name AS name, m.descriptor AS descriptor
                """, params("ids", List.copyOf(ids)),
                r -> new MethodRecord(r.get("id").asLong(), r.get("className").asString(),
                        r.get("name").asString(), r.get("descriptor").asString()));
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
        List<NodeRecord> read = read("""
                UNWIND $ids AS id
                MATCH (n:CctNode {id: id})
                WHERE n.depth IS NOT NULL // a placeholder parent not written yet: not stored
                RETURN n.id AS id, n.parentId AS parentId, n.methodId AS methodId, n.line AS line,
                       n.depth AS depth, n.recursiveParentId AS recursiveParentId
                """, params("ids", missing),
                r -> new NodeRecord(r.get("id").asLong(), r.get("parentId").asLong(), r.get("methodId").asLong(),
                        r.get("line").asInt(), r.get("depth").asInt(), r.get("recursiveParentId").asLong()));
        topology.putAll(read);
        out.addAll(read);
        return out;
    }

    /**
     * The task names of each of {@code nodeIds} that has any for {@code service}, sorted; nodes
     * without labels (or not stored) are absent. Reads in chunks, so a million ids are fine.
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
            for (Map.Entry<Long, List<String>> e : read("""
                    UNWIND $keys AS k
                    MATCH (t:NodeTasks {key: k})
                    RETURN t.nodeId AS nodeId, t.tasks AS tasks
                    """, params("keys", chunk),
                    r -> Map.entry(r.get("nodeId").asLong(), r.get("tasks").asList(Value::asString)))) {
                if (!e.getValue().isEmpty()) {
                    tasks.put(e.getKey(), e.getValue());
                }
            }
        }
        return tasks;
    }

    /**
     * The accepted task definitions that apply to {@code service} (its own and those for every
     * service), or all of them when {@code service} is null; ordered by id.
     */
    public List<TaskDefinitionRecord> taskDefinitions(String service) {
        return read("""
                MATCH (d:TaskDefinition)
                WHERE $service IS NULL OR d.service IS NULL OR d.service = $service
                RETURN d.id AS id, d.service AS service, d.matchType AS matchType, d.pattern AS pattern,
                       d.nameTemplate AS nameTemplate, d.updatedMillis AS updatedMillis
                ORDER BY d.id
                """, params("service", service),
                r -> new TaskDefinitionRecord(r.get("id").asString(), r.get("service").asString(null),
                        MatchType.valueOf(r.get("matchType").asString()), r.get("pattern").asString(),
                        r.get("nameTemplate").asString(), r.get("updatedMillis").asLong()));
    }

    private <T> List<T> read(String query, Map<String, Object> params, java.util.function.Function<Record, T> map) {
        try (Session session = Sessions.open(driver, database)) {
            return session.executeRead(tx -> {
                List<T> out = new ArrayList<>();
                tx.run(query, params).forEachRemaining(r -> out.add(map.apply(r)));
                return out;
            });
        }
    }

    private static Map<String, Object> params(Object... keyValues) {
        Map<String, Object> m = new HashMap<>(); // Map.of rejects the null values we use for "any"
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    /** A stored long array; absent (a window written before the property existed) reads as empty. */
    private static long[] longs(Value list) {
        if (list.isNull()) {
            return new long[0];
        }
        long[] out = new long[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i).asLong();
        }
        return out;
    }

    private static String[] strings(Value list) {
        if (list.isNull()) {
            return new String[0];
        }
        String[] out = new String[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i).asString();
        }
        return out;
    }

    private static InstanceRecord toInstance(Value i) {
        Map<String, String> labels = new HashMap<>();
        for (Value kv : i.get("labels").values()) {
            String s = kv.asString();
            int eq = s.indexOf('=');
            labels.put(s.substring(0, eq), s.substring(eq + 1));
        }
        return new InstanceRecord(i.get("service").asString(), i.get("version").asString(),
                i.get("instanceId").asString(), i.get("host").asString(), i.get("pid").asLong(),
                i.get("startTime").asLong(), labels, i.get("firstSample").asLong(), i.get("lastSample").asLong());
    }
}
