package io.cctflow.graph.write;

import io.cctflow.graph.FineWindowBound;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.Keys;
import io.cctflow.graph.NodeNumbering;
import io.cctflow.graph.NodeNumbers;
import io.cctflow.graph.PackedLongs;
import io.cctflow.graph.PackedWindow;
import io.cctflow.graph.SelfCounts;
import io.cctflow.graph.WindowChecksum;
import io.cctflow.graph.Sessions;
import io.cctflow.graph.StoreStamp;
import io.cctflow.model.Resolution;
import io.cctflow.model.CodeClassRecord;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.NodeTasks;
import io.cctflow.model.TaskDefinitionRecord;
import io.cctflow.core.TreeCounts;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Result;
import org.neo4j.driver.Session;

/**
 * Idempotent batched writes: topology with {@code MERGE} on ids, counts with {@code SET}, so a
 * replay after a failure writes the same graph. Each call is one or more transaction functions,
 * which the driver retries on transient errors (deadlocks between concurrent MERGEs, leader
 * switches).
 *
 * <p>Thread-safe as far as the {@link Driver} is; the caller owns the driver.
 */
public final class GraphWriter {
    /** Rows per transaction: large enough to amortise round trips, small enough for the heap. */
    static final int CHUNK = 500;
    /** Rows per transaction of label writes: one short row per node, and a relabel may touch millions. */
    public static final int LABEL_CHUNK = 5_000;
    /**
     * Rows per transaction of node writes: short rows; 2,000 wrote ~20 % more new nodes per second
     * than 500 against embedded Neo4j ({@code NodeWriteBenchmark}).
     */
    static final int NODE_CHUNK = 2_000;

    /**
     * A deployment's sample span, one row per deployment and call, in a transaction of its own
     * before the instances. Sink subtasks write instances of the same deployment at once; a
     * transaction that sets the shared deployment node and goes on to the instances deadlocks
     * with the other subtask's (91 of 200 concurrent writes in a probe, each retried by the driver
     * after a backoff while the job's task waited). Alone it only waits for the other.
     */
    private static final String WRITE_DEPLOYMENTS = """
            UNWIND $rows AS r
            MERGE (s:Service {name: r.service})
            MERGE (d:Deployment {key: r.deploymentKey})
              ON CREATE SET d.service = r.service, d.version = r.version
            SET d.firstSample = CASE WHEN d.firstSample IS NULL OR r.first < d.firstSample
                                     THEN r.first ELSE d.firstSample END,
                d.lastSample = CASE WHEN d.lastSample IS NULL OR r.last > d.lastSample
                                    THEN r.last ELSE d.lastSample END
            MERGE (s)-[:HAS_DEPLOYMENT]->(d)
            """;

    /** After {@link #WRITE_DEPLOYMENTS}: the instance, linked to its deployment, whose properties it leaves alone. */
    private static final String WRITE_INSTANCES = """
            UNWIND $rows AS r
            MATCH (d:Deployment {key: r.deploymentKey})
            MERGE (i:Instance {key: r.key})
            SET i.service = r.service, i.version = r.version, i.instanceId = r.instanceId,
                i.host = r.host, i.pid = r.pid, i.startTime = r.startTime, i.labels = r.labels,
                i.firstSample = CASE WHEN i.firstSample IS NULL OR r.first < i.firstSample
                                     THEN r.first ELSE i.firstSample END,
                i.lastSample = CASE WHEN i.lastSample IS NULL OR r.last > i.lastSample
                                    THEN r.last ELSE i.lastSample END
            MERGE (d)-[:HAS_INSTANCE]->(i)
            """;

    /**
     * A method's signature ({@link MethodRecord#signature()}) is not stored: it is its class name,
     * {@code .}, name and descriptor, and as a string it took one or two 128-byte string records
     * per method (stores before 2026-11-30 have it; nothing reads it).
     */
    private static final String WRITE_METHODS = """
            UNWIND $rows AS r
            MERGE (m:Method {id: r.id})
              ON CREATE SET m.className = r.className, m.name = r.name, m.descriptor = r.descriptor
            """;

    /**
     * A node without {@code methodId} was just created by the {@code MERGE}, or is a placeholder
     * parent (created by an earlier row of a child): only those get their properties and incoming
     * edges, so an existing node costs one index seek and no write. Concurrent writers of the same
     * new node are serialised by the unique constraint's lock, and the later one finds it complete.
     * A node outside any recursion has no {@code recursiveParentId} (its row's is null; readers take
     * it as {@link NodeRecord#NO_RECURSIVE_PARENT}): its other properties then fill two property
     * records, where a ninth block took a third (41 bytes a node); the edges carry no properties
     * (the child's {@code line} is its call site).
     */
    private static final String WRITE_NODES = """
            UNWIND $rows AS r
            MERGE (n:CctNode {id: r.id})
            WITH n, r WHERE n.methodId IS NULL
            SET n.parentId = r.parentId, n.methodId = r.methodId, n.line = r.line, n.depth = r.depth,
                n.recursiveParentId = r.recursiveParentId
            MERGE (p:CctNode {id: r.parentId})
            CREATE (p)-[:CALLS]->(n)
            WITH n, r
            MATCH (m:Method {id: r.methodId})
            CREATE (n)-[:OF_METHOD]->(m)
            """;

    /** The properties every window write sets (null removes one). */
    private static final String SET_WINDOW = """
            SET w.key = null, w.end = r.end,
                w.written = timestamp(), w.members = r.members, w.sources = r.sources, w.batches = r.batches, w.checksum = r.checksum,
                w.counts = r.counts, w.nodeIds = r.nodeIds, w.self = r.self, w.total = r.total,
                w.threadNodeIds = r.threadNodeIds, w.threadIds = r.threadIds, w.threadSelf = r.threadSelf,
                w.threadDictIds = r.threadDictIds, w.threadDictNames = r.threadDictNames,
                w.threadRawNames = r.threadRawNames,
                w.methodIds = r.methodIds, w.methodSamples = r.methodSamples, w.methodSelf = r.methodSelf,
                w.truncatedMerged = r.truncatedMerged, w.truncatedPending = r.truncatedPending,
                w.truncatedAmbiguous = r.truncatedAmbiguous, w.truncatedExpired = r.truncatedExpired
            """;

    /**
     * Windows are found by their {@code instance} property (every query seeks an index), so they
     * are not linked to their {@code :Instance}: a {@code HAS_WINDOW} relationship per window (34
     * bytes, written with a look-up of the instance and a check of its relationships) was read by
     * nothing. Windows written before keep theirs.
     */
    private static final String WRITE_WINDOWS = """
            UNWIND $rows AS r
            MERGE (w:Window {instance: r.instance, resolution: r.resolution, start: r.start})
            """ + SET_WINDOW + FineWindowBound.BUMP_AND_RAISE_AFTER;

    /** Rewrites windows that are stored already and creates none (one-member deployment roll-ups). */
    private static final String UPDATE_WINDOWS = """
            UNWIND $rows AS r
            MATCH (w:Window {instance: r.instance, resolution: r.resolution, start: r.start})
            """ + GraphSchema.SEEK_WINDOWS_BY_INSTANCE + SET_WINDOW + FineWindowBound.BUMP_AND_RAISE_AFTER + """
            RETURN stampedRows AS updated
            """;

    private static final String WRITE_NODE_TASKS = """
            UNWIND $rows AS r
            MERGE (t:NodeTasks {key: r.key})
            SET t.service = r.service, t.nodeId = r.nodeId, t.tasks = r.tasks
            """ + StoreStamp.bumpAfter(StoreStamp.TASK_LABELS);

    private static final String DELETE_NODE_TASKS = """
            UNWIND $rows AS r
            MATCH (t:NodeTasks {key: r.key})
            DELETE t
            """ + StoreStamp.bumpAfter(StoreStamp.TASK_LABELS);

    private static final String WRITE_TASK_DEFINITIONS = """
            UNWIND $rows AS r
            MERGE (d:TaskDefinition {id: r.id})
            SET d.service = r.service, d.matchType = r.matchType, d.pattern = r.pattern,
                d.nameTemplate = r.nameTemplate, d.updatedMillis = r.updatedMillis
            """;

    private static final String DELETE_TASK_DEFINITIONS = """
            UNWIND $rows AS r
            MATCH (d:TaskDefinition {id: r.id})
            DELETE d
            """;

    private static final String WRITE_CODE = """
            UNWIND $rows AS r
            MERGE (s:Service {name: r.service})
            MERGE (d:Deployment {key: r.deployment})
              ON CREATE SET d.service = r.service, d.version = r.version
            MERGE (s)-[:HAS_DEPLOYMENT]->(d)
            MERGE (c:CodeClass {key: r.key})
            SET c.deployment = r.deployment, c.className = r.className, c.methodNames = r.methodNames,
                c.descriptors = r.descriptors, c.fingerprints = r.fingerprints
            MERGE (d)-[:HAS_CODE]->(c)
            """;

    private final Driver driver;
    private final String database;
    /** The store's node numbers this writer has learnt ({@link NodeNumbers}). */
    private final NodeNumbers numbers;

    public GraphWriter(Driver driver, String database) {
        this.driver = driver;
        this.database = database;
        this.numbers = new NodeNumbers(driver, database);
    }

    /**
     * Writes executions and their deployments and services: each deployment's span grows to
     * cover its instances' ({@code firstSample}, {@code lastSample}), each instance's to cover the
     * record's. Deployments first, in their own transactions, then instances, in key order.
     */
    public void writeInstances(List<InstanceRecord> instances) {
        Map<String, DeploymentSpan> deployments = new TreeMap<>(); // key order: writers lock in one order
        for (InstanceRecord r : instances) {
            deployments.merge(Keys.deployment(r.service(), r.version()), new DeploymentSpan(r.service(), r.version(),
                    r.firstSampleMillis(), r.lastSampleMillis()), DeploymentSpan::union);
        }
        write(WRITE_DEPLOYMENTS, List.copyOf(deployments.entrySet()), e -> e.getValue().row(e.getKey()));
        List<InstanceRecord> sorted = new ArrayList<>(instances);
        sorted.sort(Comparator.comparing(r -> r.executionId().key()));
        write(WRITE_INSTANCES, sorted, r -> {
            Map<String, Object> row = new HashMap<>();
            row.put("service", r.service());
            row.put("version", r.version());
            row.put("deploymentKey", Keys.deployment(r.service(), r.version()));
            row.put("key", r.executionId().key());
            row.put("instanceId", r.instanceId());
            row.put("host", r.host());
            row.put("pid", r.pid());
            row.put("startTime", r.startTimeMillis());
            row.put("labels", r.labels().entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).sorted().toList());
            row.put("first", r.firstSampleMillis());
            row.put("last", r.lastSampleMillis());
            return row;
        });
    }

    /** The span of a deployment's samples in one {@link #writeInstances} call. */
    private record DeploymentSpan(String service, String version, long first, long last) {
        DeploymentSpan union(DeploymentSpan o) {
            return new DeploymentSpan(service, version, Math.min(first, o.first), Math.max(last, o.last));
        }

        Map<String, Object> row(String deploymentKey) {
            Map<String, Object> row = new HashMap<>(); // as every row here: a null is passed on, not refused
            row.put("service", service);
            row.put("version", version);
            row.put("deploymentKey", deploymentKey);
            row.put("first", first);
            row.put("last", last);
            return row;
        }
    }

    /**
     * Writes methods, a method already stored costing one index seek. In id order: two sink
     * subtasks meet the same new methods at a cold start, and in different orders their {@code
     * MERGE}s deadlocked (71 of 200 concurrent writes in a probe).
     */
    public void writeMethods(List<MethodRecord> methods) {
        List<MethodRecord> sorted = new ArrayList<>(methods);
        sorted.sort(Comparator.comparingLong(MethodRecord::id));
        write(WRITE_METHODS, sorted, m -> Map.of(
                "id", m.id(), "className", m.className(), "name", m.methodName(),
                "descriptor", m.descriptor()));
    }

    /**
     * Writes node topology; a node already complete in the graph is left as it is (the first write
     * of an id wins, so a hash collision keeps the first path). Rows are written parents first, so
     * a batch that holds a whole path links it completely; a node whose parent is written later by
     * another writer gets a placeholder parent that the later write completes. The method of each
     * node must have been written before ({@link #writeMethods}).
     */
    public void writeNodes(List<NodeRecord> nodes) {
        List<NodeRecord> sorted = new ArrayList<>(nodes);
        // by depth, parents first; then by id, so writers of the same new nodes lock them in one
        // order (a probe of two writers: 5 of 200 concurrent writes deadlocked without it, 0 of 600 with it)
        sorted.sort(Comparator.comparingInt(NodeRecord::depth).thenComparingLong(NodeRecord::id));
        if (sorted.isEmpty()) {
            return;
        }
        try (Session session = Sessions.open(driver, database)) {
            for (int from = 0; from < sorted.size(); from += NODE_CHUNK) {
                List<NodeRecord> chunk = sorted.subList(from, Math.min(sorted.size(), from + NODE_CHUNK));
                List<Map<String, Object>> rows = new ArrayList<>(chunk.size());
                List<Long> ids = new ArrayList<>(chunk.size());
                for (NodeRecord n : chunk) {
                    Map<String, Object> row = new HashMap<>(Map.of(
                            "id", n.id(), "parentId", n.parentId(), "methodId", n.methodId(), "line", n.line(),
                            "depth", n.depth()));
                    row.put("recursiveParentId", n.recursiveParentId() == NodeRecord.NO_RECURSIVE_PARENT
                            ? null : n.recursiveParentId());
                    rows.add(row);
                    ids.add(n.id());
                }
                session.executeWriteWithoutResult(tx -> {
                    long next = NodeNumbers.lock(tx); // first: see NodeNumbers.numberNew
                    tx.run(WRITE_NODES, Map.of("rows", rows)).consume();
                    NodeNumbers.numberNew(tx, ids, next);
                });
            }
        }
    }

    /**
     * Stores the method fingerprints of each (deployment, class), replacing what was stored for it;
     * creates the service and deployment if needed.
     */
    public void writeCode(List<CodeClassRecord> classes) {
        write(WRITE_CODE, classes, c -> {
            String deployment = Keys.deployment(c.service(), c.version());
            return Map.of("service", c.service(), "version", c.version(), "deployment", deployment,
                    "key", Keys.codeClass(deployment, c.className()), "className", c.className(),
                    "methodNames", List.of(c.methodNames()), "descriptors", List.of(c.descriptors()),
                    "fingerprints", c.fingerprints());
        });
    }

    /** Replaces the counts of each fine (execution, window). */
    public void writeWindowCounts(List<WindowCounts> windows) {
        writeWindowCounts(windows, Resolution.FINE);
    }

    /**
     * Replaces the counts of each (execution, resolution, window start): {@link Resolution#FINE}
     * for the samples job's windows, coarser ones for roll-ups ({@link Rollups}). Idempotent. The
     * long arrays are stored packed ({@link PackedLongs}), the thread names as a string array.
     */
    public void writeWindowCounts(List<WindowCounts> windows, Resolution resolution) {
        writeWindows(WRITE_WINDOWS, windows, w -> w, resolution, (w, row) -> { });
    }

    /**
     * Replaces roll-ups of whole deployments ({@link Rollups}): like {@link #writeWindowCounts(List,
     * Resolution)}, plus the {@code members} they sum. They are not linked to an instance.
     *
     * <p>A roll-up of one member repeats that member's own window (its hourly or daily one; for ten
     * minutes, its fine windows), so it is not created: readers use the member's windows, as they do
     * for any selection a deployment roll-up does not serve. One stored already (written before this
     * rule, or when the slot had more members) is rewritten, so it never lags its member's late
     * windows. A slot that gains a second member gets its roll-up at the pass that rolls it up again.
     *
     * @return the windows written (created or rewritten)
     */
    public int writeDeploymentWindows(List<DeploymentWindow> windows, Resolution resolution) {
        return writeDeploymentWindows(windows, resolution, w -> w.members().size() > 1);
    }

    /**
     * {@link #writeDeploymentWindows(List, Resolution)} with another rule for which windows are
     * created where not stored yet ({@code create}; the others are only rewritten where stored, so
     * none lags its members' late windows).
     *
     * @return the windows written (created or rewritten)
     */
    public int writeDeploymentWindows(List<DeploymentWindow> windows, Resolution resolution,
            Predicate<DeploymentWindow> create) {
        List<DeploymentWindow> shared = new ArrayList<>();
        List<DeploymentWindow> single = new ArrayList<>();
        for (DeploymentWindow w : windows) {
            (create.test(w) ? shared : single).add(w);
        }
        BiConsumer<DeploymentWindow, Map<String, Object>> members = (w, row) -> {
            row.put("members", w.members());
            row.put("sources", w.sources()); // null (settled) removes those of a provisional sum
        };
        writeWindows(WRITE_WINDOWS, shared, DeploymentWindow::window, resolution, members);
        return shared.size() + writeWindows(UPDATE_WINDOWS, single, DeploymentWindow::window, resolution, members);
    }

    /**
     * Writes windows with {@code query} ({@link #WRITE_WINDOWS} or {@link #UPDATE_WINDOWS}), {@value
     * #CHUNK} a transaction, their counts packed with the store's node numbers as read in that
     * transaction ({@link NodeNumbers#in}).
     *
     * @return the windows {@link #UPDATE_WINDOWS} rewrote (0 for {@link #WRITE_WINDOWS})
     */
    private <T> int writeWindows(String query, List<T> items, Function<T, WindowCounts> windowOf,
            Resolution resolution, BiConsumer<T, Map<String, Object>> more) {
        if (items.isEmpty()) {
            return 0;
        }
        int updated = 0;
        try (Session session = Sessions.open(driver, database)) {
            for (int from = 0; from < items.size(); from += CHUNK) {
                List<T> chunk = items.subList(from, Math.min(items.size(), from + CHUNK));
                updated += session.executeWrite(tx -> {
                    List<WindowCounts> windows = new ArrayList<>(chunk.size());
                    for (T item : chunk) {
                        windows.add(windowOf.apply(item));
                    }
                    List<Map<String, Object>> rows = windowRows(numbers.in(tx), windows, resolution);
                    for (int i = 0; i < rows.size(); i++) {
                        more.accept(chunk.get(i), rows.get(i));
                    }
                    Result result = tx.run(query, Map.of("rows", rows));
                    if (query.equals(UPDATE_WINDOWS)) {
                        return result.single().get("updated").asInt();
                    }
                    result.consume();
                    return 0;
                });
            }
        }
        return updated;
    }

    /**
     * The rows of {@code windows} at {@code resolution}, projected ({@link SelfCounts}) and packed
     * with {@code numbering}, after learning the numbers of all their nodes in one query.
     */
    static List<Map<String, Object>> windowRows(NodeNumbers.TransactionNumbering numbering, List<WindowCounts> windows,
            Resolution resolution) {
        List<WindowCounts> projected = new ArrayList<>(windows.size());
        java.util.Set<Long> ids = new java.util.HashSet<>();
        for (WindowCounts w : windows) {
            WindowCounts p = new WindowCounts(w.executionKey(), w.windowStartMillis(), w.windowEndMillis(),
                    SelfCounts.project(w.counts()), w.truncation());
            projected.add(p);
            for (long id : p.counts().nodeIds()) {
                ids.add(id);
            }
        }
        numbering.prepare(ids.stream().mapToLong(Long::longValue).toArray());
        List<Map<String, Object>> rows = new ArrayList<>(windows.size());
        for (WindowCounts p : projected) {
            rows.add(windowRow(p, resolution, numbering));
        }
        return rows;
    }

    /**
     * Adds each contribution to its fine window unless the window holds its id already (a replay,
     * a copy, a job restarted without state): stored counts only grow, never count a contribution
     * twice, whatever the age of its window ({@link ContributionMerge}). Call after the execution
     * is written. Windows are read and written in the same transaction, {@value #CHUNK} contributions
     * at a time; a window must have one writer at a time (the samples job writes an execution's
     * windows from one subtask).
     */
    public void addContributions(List<WindowContribution> contributions) {
        addContributions(contributions, WrittenWindows.none());
    }

    /**
     * {@link #addContributions(List)}, reading from the graph only the windows {@code memory} does
     * not hold as this writer last wrote them; it then holds what was committed. If a write fails,
     * {@code memory} forgets every window (the failed commit may have been applied) and the error
     * is thrown. {@code memory} must be this writer's alone, and it the only writer of its windows.
     */
    public void addContributions(List<WindowContribution> contributions, WrittenWindows memory) {
        if (contributions.isEmpty()) {
            return;
        }
        try (Session session = Sessions.open(driver, database)) {
            for (int from = 0; from < contributions.size(); from += CHUNK) {
                List<WindowContribution> chunk = contributions.subList(from, Math.min(contributions.size(), from + CHUNK));
                List<ContributionMerge.Merged> written = session.executeWrite(tx -> {
                    List<ContributionMerge.Merged> merged = ContributionMerge.merge(tx, numbers.in(tx), chunk, memory);
                    if (!merged.isEmpty()) {
                        tx.run(WRITE_WINDOWS, Map.of("rows", merged.stream().map(ContributionMerge.Merged::row).toList()))
                                .consume();
                    }
                    return merged;
                });
                written.forEach(m -> m.rememberIn(memory));
            }
        } catch (RuntimeException e) {
            memory.forgetAll();
            throw e;
        }
    }

    /** The row of one window; its node ids numbered by {@code numbering} where it can (packed format 4). */
    static Map<String, Object> windowRow(WindowCounts w, Resolution resolution, NodeNumbering numbering) {
        TreeCounts c = SelfCounts.project(w.counts()); // what every window stores since packed format 2
        Map<String, Object> row = new HashMap<>(32);
        row.put("resolution", resolution.property());
        row.put("instance", w.executionKey());
        row.put("start", w.windowStartMillis());
        row.put("end", w.windowEndMillis());
        byte[] packed = PackedWindow.pack(c, numbering);
        row.put("counts", packed);
        if (packed == null) { // tables the packed form cannot code: the columns of the layout before
            putColumns(row, c);
        }
        // zero is left out (null removes the property; it reads as 0): most windows truncate nothing,
        // and four properties fewer save a property record per window, which weighs on light windows
        row.put("truncatedMerged", nonZero(w.truncation().merged()));
        row.put("truncatedPending", nonZero(w.truncation().pending()));
        row.put("truncatedAmbiguous", nonZero(w.truncation().ambiguous()));
        row.put("truncatedExpired", nonZero(w.truncation().expired()));
        row.put("checksum", WindowChecksum.of(c, w.truncation()));
        return row;
    }

    private static Long nonZero(long count) {
        return count == 0 ? null : count;
    }

    /**
     * The counts as one packed array property per column, the layout before {@link PackedWindow}:
     * written only for tables it cannot code; the columns of a packed window are removed (set to
     * null) when it is written.
     */
    private static void putColumns(Map<String, Object> row, TreeCounts c) {
        row.put("nodeIds", PackedLongs.pack(c.nodeIds()));
        row.put("self", PackedLongs.pack(c.self()));
        row.put("total", PackedLongs.pack(c.total()));
        row.put("threadNodeIds", PackedLongs.pack(c.threadNodeIds()));
        row.put("threadIds", PackedLongs.pack(c.threadIds()));
        row.put("threadSelf", PackedLongs.pack(c.threadSelf()));
        row.put("threadDictIds", PackedLongs.pack(c.threadDictIds()));
        row.put("threadDictNames", c.threadDictNames());
        row.put("threadRawNames", c.rawThreadNames().names());
        row.put("methodIds", PackedLongs.pack(c.methodIds()));
        row.put("methodSamples", PackedLongs.pack(c.methodSamples()));
        row.put("methodSelf", PackedLongs.pack(c.methodSelf()));
    }

    /**
     * Sets the full task list of each (service, node), replacing what was stored; an empty list
     * removes the node's labels. For the same (service, node) the last element wins. Rows are
     * written in key order, so concurrent writers of the same nodes (instances of one service on
     * several subtasks) lock them in the same order and wait instead of deadlocking.
     */
    public void writeNodeTasks(List<NodeTasks> labels) {
        Map<String, NodeTasks> last = new TreeMap<>();
        for (NodeTasks t : labels) {
            last.put(Keys.nodeTasks(t.service(), t.nodeId()), t);
        }
        List<NodeTasks> set = new ArrayList<>();
        List<NodeTasks> removed = new ArrayList<>();
        for (NodeTasks t : last.values()) {
            (t.tasks().isEmpty() ? removed : set).add(t);
        }
        write(WRITE_NODE_TASKS, set, t -> Map.of("key", Keys.nodeTasks(t.service(), t.nodeId()),
                "service", t.service(), "nodeId", t.nodeId(), "tasks", t.tasks()), LABEL_CHUNK);
        write(DELETE_NODE_TASKS, removed, t -> Map.of("key", Keys.nodeTasks(t.service(), t.nodeId())), LABEL_CHUNK);
    }

    /** Stores accepted task definitions, replacing those with the same id. */
    public void writeTaskDefinitions(List<TaskDefinitionRecord> definitions) {
        write(WRITE_TASK_DEFINITIONS, definitions, d -> {
            Map<String, Object> row = new HashMap<>(); // Map.of rejects the null service of a global definition
            row.put("id", d.id());
            row.put("service", d.service());
            row.put("matchType", d.matchType().name());
            row.put("pattern", d.pattern());
            row.put("nameTemplate", d.nameTemplate());
            row.put("updatedMillis", d.updatedMillis());
            return row;
        });
    }

    /** Removes the task definitions with these ids; unknown ids are ignored. */
    public void deleteTaskDefinitions(Collection<String> ids) {
        write(DELETE_TASK_DEFINITIONS, List.copyOf(ids), id -> Map.of("id", id));
    }

    private <T> void write(String query, List<T> items, Function<T, Map<String, Object>> toRow) {
        write(query, items, toRow, CHUNK);
    }

    private <T> void write(String query, List<T> items, Function<T, Map<String, Object>> toRow, int chunk) {
        if (items.isEmpty()) {
            return;
        }
        try (Session session = Sessions.open(driver, database)) {
            for (int from = 0; from < items.size(); from += chunk) {
                List<Map<String, Object>> rows = new ArrayList<>();
                for (T item : items.subList(from, Math.min(items.size(), from + chunk))) {
                    rows.add(toRow.apply(item));
                }
                session.executeWriteWithoutResult(tx -> tx.run(query, Map.of("rows", rows)).consume());
            }
        }
    }
}
