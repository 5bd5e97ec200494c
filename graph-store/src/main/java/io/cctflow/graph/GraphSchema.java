package io.cctflow.graph;

import io.cctflow.graph.maintenance.Rollups;
import io.cctflow.model.Resolution;
import io.cctflow.core.NodeId;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

/**
 * The Neo4j model, created idempotently at start-up.
 *
 * <pre>
 * (:Service {name}) -[:HAS_DEPLOYMENT]-> (:Deployment {key, service, version, firstSample, lastSample})
 *     -[:HAS_INSTANCE]-> (:Instance {key, service, version, instanceId, host, pid, startTime,
 *                                    labels, firstSample, lastSample})
 * (:Window {instance (the :Instance's key), resolution, start (unique together), end, counts (PackedWindow; or, as
 *                                written before: nodeIds[], self[], total[], threadNodeIds[], threadIds[],
 *                                threadSelf[], threadDictIds[], threadDictNames[], threadRawNames[],
 *                                methodIds[], methodSamples[], methodSelf[]),
 *                                truncatedMerged, truncatedPending, truncatedAmbiguous, truncatedExpired, checksum})
 * (:Window {instance: deployment roll-up key, resolution, start, end, members[], ...the same counts})
 * (:CctNode {id, seq (NodeNumbers), parentId, methodId, line, depth, recursiveParentId?}) -[:CALLS]-> (:CctNode)
 * (:NodeNumbering {name: 'cct-nodes', epoch, next})
 * (:CctNode) -[:OF_METHOD]-> (:Method {id, className, name, descriptor})
 * (:NodeTasks {key, service, nodeId, tasks[]})
 * (:TaskDefinition {id, service, matchType, pattern, nameTemplate, updatedMillis})
 * (:Deployment) -[:HAS_CODE]-> (:CodeClass {key, deployment, className, methodNames[], descriptors[],
 *                                          fingerprints[]})
 * </pre>
 *
 * A {@code :CodeClass} holds the bytecode fingerprints of one class as one deployment loaded it
 * (from the agents' code manifests), as parallel arrays, one entry per method: one node per
 * (deployment, class), {@code key} = deployment key + U+001F + class name, written with
 * {@code MERGE} on the key and {@code SET} of the arrays, so the manifests of every instance of a
 * deployment, and replays, write the same node. Two deployments' fingerprints give the change
 * list of seed 000 Sect. 3.2 ({@link io.cctflow.graph.read.CatalogueReader#methodFingerprints}).
 *
 * Topology is shared by every instance (node ids are path hashes); counts are per (instance,
 * window) as parallel arrays on one {@code :Window} node, so a time range reads one row per window:
 * per node, per (node, thread) and per method ({@link io.cctflow.core.TreeCounts}). {@code
 * resolution} is {@code fine} for the samples job's windows, {@code hour} or {@code day} for
 * roll-ups ({@link Rollups}), also per whole deployment (with the {@code members} they sum, and
 * also {@code ten_minutes}); {@code graph-store/README.md} describes the model.
 *
 * <p><b>Task labels</b> are per (service, node), because a task definition may be limited to one
 * service: one {@code :NodeTasks} node per (service, CCT node) that is a task root, keyed by
 * service and node id, with the sorted names of the tasks it carries and its parent does not (a
 * node's tasks are its parent's plus those its own method matches, seed 002 Sect. 3.3.3, so they
 * are those of the roots on its path). It is set whole, never appended to, and removed when the
 * list becomes empty, so a node that roots no task has no {@code :NodeTasks}. It is
 * not linked to its {@code :CctNode}: readers look labels up by key for the nodes they have, and
 * label writes need not wait for topology writes. {@code :TaskDefinition} holds each accepted
 * definition ({@code service} absent: every service); deleted and rejected ones are absent.
 */
public final class GraphSchema {
    /**
     * Indexes and constraints of the layouts before, dropped first: a window was named by a stored
     * {@code key} string (its own constraint and index entry, and a string-store record each, about
     * 250 bytes a window), now by its {@code (instance, resolution, start)} constraint, which replaced
     * the index on the same properties; {@code (instance, start)} served no query that the constraint
     * does not, and retention seeks {@code (resolution, start)} where it used {@code (resolution, end)}.
     * {@code CctNode(methodId)} served no query (a method's nodes are its {@code OF_METHOD} edges) and
     * cost an entry of about 70 bytes per calling context.
     */
    static final List<String> DROPPED = List.of(
            "DROP CONSTRAINT window_key IF EXISTS",
            "DROP INDEX window_instance_start IF EXISTS",
            "DROP INDEX window_instance_resolution_start IF EXISTS",
            "DROP INDEX window_resolution_end IF EXISTS",
            "DROP INDEX cct_node_method IF EXISTS");

    static final List<String> STATEMENTS = List.of(
            "CREATE CONSTRAINT service_name IF NOT EXISTS FOR (s:Service) REQUIRE s.name IS UNIQUE",
            "CREATE CONSTRAINT deployment_key IF NOT EXISTS FOR (d:Deployment) REQUIRE d.key IS UNIQUE",
            "CREATE CONSTRAINT instance_key IF NOT EXISTS FOR (i:Instance) REQUIRE i.key IS UNIQUE",
            "CREATE CONSTRAINT window_identity IF NOT EXISTS FOR (w:Window) REQUIRE (w.instance, w.resolution, w.start) IS UNIQUE",
            "CREATE CONSTRAINT cct_node_id IF NOT EXISTS FOR (n:CctNode) REQUIRE n.id IS UNIQUE",
            "CREATE CONSTRAINT method_id IF NOT EXISTS FOR (m:Method) REQUIRE m.id IS UNIQUE",
            "CREATE CONSTRAINT cct_node_seq IF NOT EXISTS FOR (n:CctNode) REQUIRE n.seq IS UNIQUE",
            "CREATE CONSTRAINT node_numbering_name IF NOT EXISTS FOR (k:NodeNumbering) REQUIRE k.name IS UNIQUE",
            "CREATE CONSTRAINT node_tasks_key IF NOT EXISTS FOR (t:NodeTasks) REQUIRE t.key IS UNIQUE",
            "CREATE CONSTRAINT task_definition_id IF NOT EXISTS FOR (d:TaskDefinition) REQUIRE d.id IS UNIQUE",
            "CREATE CONSTRAINT code_class_key IF NOT EXISTS FOR (c:CodeClass) REQUIRE c.key IS UNIQUE",
            "CREATE CONSTRAINT maintenance_lease_name IF NOT EXISTS FOR (l:MaintenanceLease) REQUIRE l.name IS UNIQUE",
            "CREATE CONSTRAINT store_stamp_name IF NOT EXISTS FOR (s:StoreStamp) REQUIRE s.name IS UNIQUE",
            "CREATE INDEX window_resolution_start IF NOT EXISTS FOR (w:Window) ON (w.resolution, w.start)",
            "CREATE INDEX window_resolution_written IF NOT EXISTS FOR (w:Window) ON (w.resolution, w.written)",
            "CREATE INDEX method_class_name IF NOT EXISTS FOR (m:Method) ON (m.className, m.name)");

    /**
     * A planner hint for a {@code MATCH} of the windows of named executions, {@code w} the window:
     * seek the {@code window_identity} constraint's index by instance. On a new or nearly empty
     * store Neo4j planned some such reads with {@code window_resolution_start} instead, every
     * instance's windows of the range filtered down to the named ones, and kept that plan for its
     * replan interval. On a store with statistics it picks this index anyway.
     */
    public static final String SEEK_WINDOWS_BY_INSTANCE = "USING INDEX w:Window(instance, resolution, start)\n";

    /** Nodes numbered per transaction on a store written before nodes had numbers ({@link NodeNumbers}). */
    static final int NUMBERING_BATCH = 10_000;

    private GraphSchema() {
    }

    /** Creates constraints, indexes and the virtual root node if they do not exist. */
    public static void ensure(Driver driver, String database) {
        try (Session session = Sessions.open(driver, database)) {
            for (List<String> statements : List.of(DROPPED, STATEMENTS)) {
                for (String statement : statements) {
                    session.executeWriteWithoutResult(tx -> tx.run(statement).consume());
                }
            }
            session.executeWriteWithoutResult(tx -> tx.run(
                            "MERGE (r:CctNode {id: $id}) SET r.parentId = $none, r.methodId = 0, r.line = 0, r.depth = 0",
                            Map.of("id", NodeId.ROOT, "none", 0L))
                    .consume());
            session.run("CALL db.awaitIndexes(60)").consume();
            // the numbering's node on a new store, and numbers for the nodes of a store written before them
            // (the root above among them), a batch per transaction
            while (session.executeWrite(tx -> NodeNumbers.numberUnnumbered(tx, NUMBERING_BATCH)) > 0) {
                // numbered a batch; go on until none is left
            }
            // windows written before roll-ups existed are fine windows; an auto-commit transaction
            // because CALL ... IN TRANSACTIONS needs one
            session.run("MATCH (w:Window) WHERE w.resolution IS NULL"
                    + " CALL (w) { SET w.resolution = $fine } IN TRANSACTIONS OF 10000 ROWS",
                    Map.of("fine", Resolution.FINE.property())).consume();
            // after the migration above; records the longest fine window on a store written without it
            session.executeWriteWithoutResult(tx -> tx.run(FineWindowBound.RECORD,
                    Map.of("fine", Resolution.FINE.property())).consume());
        }
    }
}
