package io.cctflow.flink.sink;

import io.cctflow.flink.cct.TopologyUpdate;
import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.servers.TestServers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

/**
 * {@link TopologyWrite} against a real Neo4j: a node a writer already wrote is not written again
 * for another instance (shown by deleting it behind the writer's back), while instances are always
 * written and a fresh writer, as after a restart, writes everything again.
 */
class TopologyWriteTest {
    private static final MethodRecord MAIN = MethodRecord.of("app.Main", "main", "([Ljava/lang/String;)V");
    private static final MethodRecord WORK = MethodRecord.of("app.Main", "work", "()V");
    private static final NodeRecord N1 = new NodeRecord(101, 0, MAIN.id(), 0, 1, NodeRecord.NO_RECURSIVE_PARENT);
    private static final NodeRecord N2 = new NodeRecord(102, 101, WORK.id(), 7, 2, NodeRecord.NO_RECURSIVE_PARENT);

    @Test
    void nodesAlreadyWrittenAreSkippedUntilTheWriterStartsAfresh() {
        TestServers servers = TestServers.get();
        servers.cleanNeo4j();
        try (Driver driver = servers.newDriver()) {
            GraphSchema.ensure(driver, "");
            GraphWriter writer = new GraphWriter(driver, "");
            TopologyWrite write = new TopologyWrite(1_000);

            write.write(writer, List.of(update("i-1"), update("i-1")));
            assertThat(node(driver, N2.id())).containsEntry("methodId", WORK.id()).containsEntry("line", 7L);
            assertThat(count(driver, "MATCH (:CctNode {id: 101})-[:CALLS]->(:CctNode {id: 102}) RETURN count(*)"))
                    .isOne();

            run(driver, "MATCH (n:CctNode {id: 102}) DETACH DELETE n");
            write.write(writer, List.of(update("i-2")));
            assertThat(node(driver, N2.id())).as("skipped: the writer wrote it for i-1").isEmpty();
            assertThat(count(driver, "MATCH (i:Instance) RETURN count(i)")).isEqualTo(2);

            new TopologyWrite(1_000).write(writer, List.of(update("i-2")));
            assertThat(node(driver, N2.id())).as("a fresh writer").containsEntry("depth", 2L);

            TopologyWrite forgetful = new TopologyWrite(0);
            forgetful.write(writer, List.of(update("i-3")));
            run(driver, "MATCH (n:CctNode {id: 102}) DETACH DELETE n");
            forgetful.write(writer, List.of(update("i-3")));
            assertThat(node(driver, N2.id())).as("remembering nothing").containsEntry("parentId", 101L);
        }
    }

    private static TopologyUpdate update(String instance) {
        return new TopologyUpdate(new InstanceRecord("svc", "v1", instance, "host", 1, 0, Map.of(), 60_000, 70_000),
                new MethodRecord[] {MAIN, WORK}, new NodeRecord[] {N1, N2});
    }

    private static Map<String, Object> node(Driver driver, long id) {
        try (Session s = driver.session()) {
            var rows = s.run("MATCH (n:CctNode {id: $id}) RETURN n", Map.of("id", id)).list();
            return rows.isEmpty() ? Map.of() : rows.get(0).get("n").asMap();
        }
    }

    private static long count(Driver driver, String query) {
        try (Session s = driver.session()) {
            return s.run(query).single().get(0).asLong();
        }
    }

    private static void run(Driver driver, String query) {
        try (Session s = driver.session()) {
            s.run(query).consume();
        }
    }
}
