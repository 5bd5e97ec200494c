package io.cctflow.graph;

import io.cctflow.model.Resolution;
import io.cctflow.core.MethodId;
import io.cctflow.model.DeploymentRecord;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.DeploymentWindowVersion;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.TaskDefinitionRecord;
import io.cctflow.core.task.MatchType;
import io.cctflow.core.TreeCounts;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import io.cctflow.model.WindowSpan;
import io.cctflow.model.WindowVersion;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;
import org.neo4j.driver.types.TypeSystem;

/**
 * The read queries. Every query takes parameters; none is built from user input.
 *
 * <p>Thread-safe as far as the {@link Driver} is; the caller owns the driver.
 */
public final class GraphReader {
    /** Ids per query of {@link #nodeTasks}. */
    static final int READ_CHUNK = 10_000;
    /** Ids per query of {@link #nodes}: each query returns its records as one row of columns. */
    static final int NODE_CHUNK = 50_000;
    /** Node records the default reader keeps in memory (about 100 bytes each). */
    public static final int DEFAULT_TOPOLOGY_CACHE_NODES = 1_000_000;
    /**
     * The longest fine window range reads expect (the samples job's {@code window}, 1 min by
     * default): a longer one starting before a range's start would not be counted there.
     */
    public static final long MAX_FINE_WINDOW_MILLIS = 3_600_000;
    /** Reads of windows that met a window being rewritten, before giving up ({@link #readWindows}). */
    static final int TORN_READ_ATTEMPTS = 5;

    private final Driver driver;
    private final String database;
    /** Rows of decoded windows the default reader keeps in memory ({@link WindowCache}). */
    public static final long DEFAULT_WINDOW_CACHE_ROWS = WindowCache.DEFAULT_ROWS;

    private final TopologyCache topology;
    private final WindowCache windowCache;

    public GraphReader(Driver driver, String database) {
        this(driver, database, DEFAULT_TOPOLOGY_CACHE_NODES);
    }

    /** @param topologyCacheNodes most node records kept in memory; 0 turns both caches off */
    public GraphReader(Driver driver, String database, int topologyCacheNodes) {
        this(driver, database, topologyCacheNodes, topologyCacheNodes == 0 ? 0 : DEFAULT_WINDOW_CACHE_ROWS);
    }

    /**
     * @param topologyCacheNodes most node records kept in memory; 0 turns the topology cache off
     * @param windowCacheRows most rows of decoded windows kept in memory ({@link #windows(List, long)});
     *     0 turns the window cache off
     */
    public GraphReader(Driver driver, String database, int topologyCacheNodes, long windowCacheRows) {
        this(driver, database, new TopologyCache(topologyCacheNodes),
                new WindowCache(windowCacheRows, Rollups.WRITE_MARGIN_MILLIS));
    }

    GraphReader(Driver driver, String database, TopologyCache topology, WindowCache windowCache) {
        this.driver = driver;
        this.database = database;
        this.topology = topology;
        this.windowCache = windowCache;
    }

    /** Empties the window cache (the next range reads decode every window again); for measurements. */
    public void clearWindowCache() {
        windowCache.clear();
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

    /** What a window query returns: the arrays of {@link WindowCounts}. */
    private static final String WINDOW_COLUMNS = """
            RETURN w.key AS key, w.instance AS instance, w.start AS start, w.end AS end, w.written AS written,
                   w.nodeIds AS nodeIds, w.self AS self, w.total AS total,
                   w.threadNodeIds AS threadNodeIds, w.threadIds AS threadIds, w.threadSelf AS threadSelf,
                   w.threadDictIds AS threadDictIds, w.threadDictNames AS threadDictNames,
                   w.methodIds AS methodIds, w.methodSamples AS methodSamples, w.methodSelf AS methodSelf,
                   w.truncatedMerged AS truncatedMerged, w.truncatedPending AS truncatedPending,
                   w.truncatedAmbiguous AS truncatedAmbiguous, w.truncatedExpired AS truncatedExpired,
                   w.members AS members, w.checksum AS checksum
            """;

    /**
     * Fine windows (as the samples job wrote them) of the given executions that overlap
     * [fromMillis, toMillis). For long ranges use {@link RangeReader}, which reads roll-ups.
     */
    public List<WindowCounts> windows(Collection<String> executionKeys, long fromMillis, long toMillis) {
        return readWindows("""
                MATCH (w:Window)
                WHERE w.instance IN $keys AND w.resolution = $fine AND w.start < $to AND w.end > $from
                """ + WINDOW_COLUMNS,
                params("keys", List.copyOf(executionKeys), "from", fromMillis, "to", toMillis,
                        "fine", Resolution.FINE.property()));
    }

    /**
     * Windows of one resolution, of every execution, whose start lies in [fromStart, toStart);
     * roll-ups of whole deployments are not among them ({@link #deploymentWindowsStartingIn}).
     */
    public List<WindowCounts> windowsStartingIn(Resolution resolution, long fromStart, long toStart) {
        return readWindows("""
                MATCH (w:Window)
                WHERE w.resolution = $resolution AND w.start >= $from AND w.start < $to AND w.members IS NULL
                """ + WINDOW_COLUMNS,
                params("resolution", resolution.property(), "from", fromStart, "to", toStart));
    }

    /** Roll-ups of whole deployments of one resolution whose start lies in [fromStart, toStart). */
    public List<DeploymentWindow> deploymentWindowsStartingIn(Resolution resolution, long fromStart, long toStart) {
        return readWindows("""
                MATCH (w:Window)
                WHERE w.resolution = $resolution AND w.start >= $from AND w.start < $to AND w.members IS NOT NULL
                """ + WINDOW_COLUMNS,
                params("resolution", resolution.property(), "from", fromStart, "to", toStart),
                r -> new DeploymentWindow(toWindow(r), r.get("members").asList(Value::asString)));
    }

    /**
     * What a range read's plan lists in one query ({@link #rollupVersions}): the database clock when
     * the query ran, and span, write time and (for deployments' roll-ups) members of the roll-ups.
     *
     * @param deploymentRollups roll-ups of whole deployments, members empty if a window has none
     * @param executionRollups roll-ups of single executions
     */
    public record RollupVersions(long nowMillis, List<DeploymentWindowVersion> deploymentRollups,
            List<WindowVersion> executionRollups) {
    }

    /**
     * Span and write time (no counts) of the roll-ups that lie inside [fromMillis, toMillis): of
     * the executions ({@code executionKeys}) at {@code executionResolutions}, and of whole
     * deployments ({@code deploymentKeys}, {@link Keys#deploymentRollup}) with their members at
     * {@code deploymentResolutions}; with the database clock ({@link #databaseTimeMillis}) taken
     * by the same query. One query returning one row of columns: a plan used to list them in one
     * query per resolution and kind plus one for the clock, and on this machine each round trip
     * cost more than the rows it returned.
     */
    public RollupVersions rollupVersions(Collection<String> executionKeys, Collection<Resolution> executionResolutions,
            Collection<String> deploymentKeys, Collection<Resolution> deploymentResolutions, long fromMillis,
            long toMillis) {
        List<Map<String, Object>> seeks = new ArrayList<>();
        for (Resolution r : deploymentResolutions) {
            for (String key : deploymentKeys) {
                seeks.add(Map.of("key", key, "resolution", r.property()));
            }
        }
        for (Resolution r : executionResolutions) {
            for (String key : executionKeys) {
                seeks.add(Map.of("key", key, "resolution", r.property()));
            }
        }
        Set<String> deployments = new HashSet<>(deploymentKeys);
        // collect() skips nulls, so every collected value is non-null (coalesce) to keep the columns aligned
        return read("""
                CALL {
                  UNWIND $seeks AS s
                  MATCH (w:Window)
                  WHERE w.instance = s.key AND w.resolution = s.resolution AND w.start >= $from AND w.start < $to
                    AND w.end <= $to
                  RETURN collect(w.instance) AS instance, collect(w.resolution) AS resolution,
                         collect(w.start) AS start, collect(w.end) AS end,
                         collect(coalesce(w.written, $noWritten)) AS written, collect(coalesce(w.members, [])) AS members
                }
                RETURN timestamp() AS now, instance, resolution, start, end, written, members
                """, params("seeks", seeks, "from", fromMillis, "to", toMillis, "noWritten", Long.MAX_VALUE), r -> {
                    Value instance = r.get("instance");
                    Value resolution = r.get("resolution");
                    Value start = r.get("start");
                    Value end = r.get("end");
                    Value written = r.get("written");
                    Value members = r.get("members");
                    List<DeploymentWindowVersion> ofDeployments = new ArrayList<>();
                    List<WindowVersion> ofExecutions = new ArrayList<>();
                    for (int i = 0; i < instance.size(); i++) {
                        String key = instance.get(i).asString();
                        WindowVersion v = new WindowVersion(new WindowSpan(key,
                                Resolution.ofProperty(resolution.get(i).asString()),
                                start.get(i).asLong(), end.get(i).asLong()), written.get(i).asLong());
                        if (deployments.contains(key)) {
                            ofDeployments.add(new DeploymentWindowVersion(v, members.get(i).asList(Value::asString)));
                        } else {
                            ofExecutions.add(v);
                        }
                    }
                    return new RollupVersions(r.get("now").asLong(), ofDeployments, ofExecutions);
                }).get(0);
    }

    /**
     * Span and write time of the fine windows overlapping any of the intervals (each window once).
     * Fine windows are at most {@link #MAX_FINE_WINDOW_MILLIS} long, so only those starting that
     * long before an interval are looked at: without the bound the index seek on {@code start}
     * would walk every earlier window of the execution (a week of them for the end of a range).
     */
    public List<WindowVersion> fineWindowVersionsIn(Collection<WindowSpan> intervals) {
        List<Map<String, Object>> rows = intervals.stream().map(i -> Map.<String, Object>of(
                "instance", i.executionKey(), "from", i.startMillis(), "to", i.endMillis(),
                "earliest", i.startMillis() - MAX_FINE_WINDOW_MILLIS)).toList();
        return read("""
                UNWIND $rows AS g
                MATCH (w:Window)
                WHERE w.instance = g.instance AND w.resolution = $fine AND w.start > g.earliest AND w.start < g.to
                  AND w.end > g.from
                WITH DISTINCT w
                RETURN w.instance AS instance, w.start AS start, w.end AS end, w.written AS written
                """, params("rows", rows, "fine", Resolution.FINE.property()), r -> toVersion(r, Resolution.FINE));
    }

    private static WindowVersion toVersion(Record r, Resolution resolution) {
        return new WindowVersion(new WindowSpan(r.get("instance").asString(), resolution, r.get("start").asLong(),
                r.get("end").asLong()), r.get("written").asLong(Long.MAX_VALUE));
    }

    /**
     * The counts of these versions of windows ({@link #windowVersions}), from the window cache
     * where it holds them; the others are read and, once settled at {@code planNowMillis} (the
     * database clock when the versions were listed), kept in it ({@link WindowCache}). A window
     * no longer stored is left out; one rewritten since it was listed is read as it is now, except
     * a roll-up of a whole deployment, whose members may have changed with it.
     *
     * @throws StaleReadPlanException if a deployment's roll-up was rewritten since it was listed
     */
    public List<WindowCounts> windows(List<WindowVersion> versions, long planNowMillis) {
        return windows(versions, planNowMillis, true);
    }

    /**
     * {@link #windows(List, long)}; with {@code keep} false the windows read are not kept in the
     * cache (their group's sum will be, {@link #keepSum}).
     */
    List<WindowCounts> windows(List<WindowVersion> versions, long planNowMillis, boolean keep) {
        List<WindowCounts> out = new ArrayList<>(versions.size());
        Map<String, WindowVersion> missing = new HashMap<>();
        for (WindowVersion v : versions) {
            String key = key(v.span());
            WindowCounts cached = windowCache.get(key, v.writtenMillis());
            if (cached != null) {
                out.add(cached);
            } else {
                missing.put(key, v);
            }
        }
        if (!missing.isEmpty()) {
            for (Fetched f : readWindows("""
                    UNWIND $keys AS key
                    MATCH (w:Window {key: key})
                    """ + WINDOW_COLUMNS, params("keys", List.copyOf(missing.keySet())), GraphReader::toFetched)) {
                long planned = missing.get(f.key()).writtenMillis();
                if (f.deployment() && f.writtenMillis() != planned) {
                    // its members may differ from those the plan covered with it
                    throw new StaleReadPlanException(f.key(), planned, f.writtenMillis());
                }
                out.add(f.counts());
                if (keep) {
                    windowCache.put(f.key(), f.writtenMillis(), planNowMillis, f.counts());
                }
            }
        }
        return out;
    }

    /** A window read by key: its version, and whether it is a roll-up of a whole deployment. */
    private record Fetched(String key, long writtenMillis, boolean deployment, WindowCounts counts) {
    }

    private static Fetched toFetched(Record r) {
        return new Fetched(r.get("key").asString(), r.get("written").asLong(Long.MAX_VALUE),
                !r.get("members").isNull(), toWindow(r));
    }

    /**
     * The sum of a group of window versions (the windows of one time slot of several executions)
     * if the window cache keeps it ({@link #keepSum}); else null.
     */
    public TreeCounts cachedSum(List<WindowVersion> group) {
        return windowCache.getSum(sumKey(group));
    }

    /** Keeps {@code sum}, the counts of {@code group} summed, once all of its versions were settled at {@code planNowMillis}. */
    public void keepSum(List<WindowVersion> group, long planNowMillis, TreeCounts sum) {
        long latest = Long.MIN_VALUE;
        for (WindowVersion v : group) {
            latest = Math.max(latest, v.writtenMillis());
        }
        windowCache.putSum(sumKey(group), latest, planNowMillis, sum);
    }

    /** A name of the group that lists every member's key and written, in key order. */
    private static String sumKey(List<WindowVersion> group) {
        List<String> members = new ArrayList<>(group.size());
        for (WindowVersion v : group) {
            members.add(key(v.span()) + '@' + v.writtenMillis());
        }
        java.util.Collections.sort(members);
        return "sum\n" + String.join("\n", members);
    }

    private static String key(WindowSpan s) {
        return Keys.window(s.executionKey(), s.resolution(), s.startMillis());
    }

    /** The counts of the given windows, by their spans; spans not stored are left out. */
    public List<WindowCounts> windows(Collection<WindowSpan> spans) {
        List<String> keys = spans.stream().map(s -> Keys.window(s.executionKey(), s.resolution(), s.startMillis()))
                .toList();
        return readWindows("""
                UNWIND $keys AS key
                MATCH (w:Window {key: key})
                """ + WINDOW_COLUMNS, params("keys", keys));
    }

    /** Distinct starts of the windows of one resolution (every execution) with start in [from, to). */
    public List<Long> windowStarts(Resolution resolution, long fromStart, long toStart) {
        return read("""
                MATCH (w:Window)
                WHERE w.resolution = $resolution AND w.start >= $from AND w.start < $to
                RETURN DISTINCT w.start AS start
                """, params("resolution", resolution.property(), "from", fromStart, "to", toStart),
                r -> r.get("start").asLong());
    }

    /**
     * Distinct starts of fine windows written (database clock) at or after {@code writtenSince}
     * whose start is before {@code toStart}: late windows whose roll-ups must be computed again.
     */
    public List<Long> fineStartsWrittenSince(long writtenSince, long toStart) {
        return read("""
                MATCH (w:Window)
                WHERE w.resolution = $fine AND w.written >= $since AND w.start < $to
                RETURN DISTINCT w.start AS start
                """, params("fine", Resolution.FINE.property(), "since", writtenSince, "to", toStart),
                r -> r.get("start").asLong());
    }

    /** How far roll-ups have got; {@link RollupState#NONE} before the first pass. */
    public RollupState rollupState() {
        List<RollupState> s = read("""
                MATCH (s:RollupState {name: 'rollups'})
                RETURN s.hourDoneUntil AS hour, s.dayDoneUntil AS day, s.lastPass AS pass
                """, Map.of(), r -> new RollupState(r.get("hour").asLong(), r.get("day").asLong(),
                        r.get("pass").asLong()));
        return s.isEmpty() ? RollupState.NONE : s.get(0);
    }

    /** The database's clock (epoch millis), the clock of {@code written} on windows. */
    public long databaseTimeMillis() {
        return read("RETURN timestamp() AS t", Map.of(), r -> r.get("t").asLong()).get(0);
    }

    /** The node records of one {@link #nodes} query: parallel columns of one row. */
    private static List<NodeRecord> toNodes(Record r) {
        long[] id = longs(r.get("id"));
        long[] parent = longs(r.get("parentId"));
        long[] method = longs(r.get("methodId"));
        long[] line = longs(r.get("line"));
        long[] depth = longs(r.get("depth"));
        long[] recursive = longs(r.get("recursiveParentId"));
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

    private static WindowCounts toWindow(Record r) {
        try {
            WindowCounts w = toWindowCounts(r);
            checkSumsAgree(w.counts());
            checkChecksum(w, r.get("checksum"));
            return w;
        } catch (IllegalArgumentException e) {
            throw new TornWindowException(r.get("instance").asString() + "@" + r.get("start").asLong(), e);
        }
    }

    /**
     * Each table of a window taken alone can look whole while coming from another write than the
     * next table (read-committed reads of a window being rewritten): the self counts summed over
     * nodes and over (node, thread) entries are the same samples (Eq. 3.16), so they must agree.
     * An empty per-thread table is not compared.
     *
     * @throws IllegalArgumentException if they do not
     */
    private static void checkSumsAgree(TreeCounts c) {
        long nodes = sum(c.self());
        long threads = sum(c.threadSelf());
        if (c.threadSelf().length > 0 && threads != nodes) {
            throw new IllegalArgumentException("self samples " + nodes + " by node, " + threads + " by thread");
        }
    }

    /**
     * The window's tables must be the ones its {@link WindowChecksum} was computed over: a read that
     * took them from different writes gets another checksum (windows written before checksums
     * existed have none and are not checked).
     *
     * @throws IllegalArgumentException if the checksum differs
     */
    private static void checkChecksum(WindowCounts w, Value stored) {
        if (!stored.isNull() && stored.asLong() != WindowChecksum.of(w.counts(), w.truncation())) {
            throw new IllegalArgumentException("tables do not match the checksum written with them");
        }
    }

    private static long sum(long[] values) {
        long s = 0;
        for (long v : values) {
            s += v;
        }
        return s;
    }

    private static WindowCounts toWindowCounts(Record r) {
        return new WindowCounts(r.get("instance").asString(), r.get("start").asLong(), r.get("end").asLong(),
                TreeCounts.of(longs(r.get("nodeIds")), longs(r.get("self")), longs(r.get("total")),
                        longs(r.get("threadNodeIds")), longs(r.get("threadIds")), longs(r.get("threadSelf")),
                        longs(r.get("threadDictIds")), strings(r.get("threadDictNames")),
                        longs(r.get("methodIds")), longs(r.get("methodSamples")), longs(r.get("methodSelf"))),
                new TruncationCounts(r.get("truncatedMerged").asLong(0), r.get("truncatedPending").asLong(0),
                        r.get("truncatedAmbiguous").asLong(0), r.get("truncatedExpired").asLong(0)));
    }

    /** Deployments of one service, or of all services when {@code service} is null, with their sample windows. */
    public List<DeploymentRecord> deployments(String service) {
        return read("""
                MATCH (d:Deployment)
                WHERE $service IS NULL OR d.service = $service
                OPTIONAL MATCH (d)-[:HAS_INSTANCE]->(i:Instance)
                RETURN d.service AS service, d.version AS version, d.firstSample AS first, d.lastSample AS last,
                       count(i) AS instances
                ORDER BY service, first, version
                """, params("service", service),
                r -> new DeploymentRecord(r.get("service").asString(), r.get("version").asString(),
                        r.get("first").asLong(0), r.get("last").asLong(0), r.get("instances").asInt()));
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
        List<NodeRecord> read = new ArrayList<>(missing.size());
        for (int from = 0; from < missing.size(); from += NODE_CHUNK) {
            List<Long> chunk = missing.subList(from, Math.min(missing.size(), from + NODE_CHUNK));
            // one row of columns per chunk: a row per node costs the driver a record (and the
            // server a result row) each, several times the cost of the index seek itself
            read.addAll(read("""
                    UNWIND $ids AS id
                    MATCH (n:CctNode {id: id})
                    WHERE n.depth IS NOT NULL // a placeholder parent not written yet: not stored
                    RETURN collect(n.id) AS id, collect(n.parentId) AS parentId, collect(n.methodId) AS methodId,
                           collect(n.line) AS line, collect(n.depth) AS depth,
                           collect(n.recursiveParentId) AS recursiveParentId
                    """, params("ids", List.copyOf(chunk)), GraphReader::toNodes).get(0));
        }
        topology.putAll(read);
        out.addAll(read);
        return out;
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

    /**
     * Reads windows with {@code query} ({@link #WINDOW_COLUMNS}). Neo4j reads are read-committed:
     * a read can see a window's properties half from before and half from after a concurrent
     * rewrite (the samples job rewrites open windows every early-firing interval), which shows as
     * columns that do not fit together; such a read is repeated, up to {@value #TORN_READ_ATTEMPTS}
     * times.
     */
    private List<WindowCounts> readWindows(String query, Map<String, Object> params) {
        return readWindows(query, params, GraphReader::toWindow);
    }

    private <T> List<T> readWindows(String query, Map<String, Object> params,
            java.util.function.Function<Record, T> map) {
        for (int attempt = 1; ; attempt++) {
            try {
                return read(query, params, map);
            } catch (TornWindowException e) {
                if (attempt >= TORN_READ_ATTEMPTS) {
                    throw new IllegalStateException(e.getMessage() + " in " + attempt + " reads in a row", e);
                }
            }
        }
    }

    /** A window whose columns do not fit together: read while it was being rewritten, or damaged. */
    private static final class TornWindowException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TornWindowException(String key, IllegalArgumentException cause) {
            super("window " + key + " has inconsistent count columns (" + cause.getMessage() + ")", cause);
        }
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

    /**
     * A stored long array: packed ({@link PackedLongs}, how windows are written) or a list (node
     * columns, and windows written before packing); absent (a window written before the property
     * existed) reads as empty.
     */
    private static long[] longs(Value list) {
        if (list.isNull()) {
            return new long[0];
        }
        if (list.hasType(TypeSystem.getDefault().BYTES())) {
            return PackedLongs.unpack(list.asByteArray());
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
