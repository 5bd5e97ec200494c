package io.cctflow.graph;

import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.write.GraphWriter;
import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.task.MatchType;
import io.cctflow.model.NodeTasks;
import io.cctflow.model.TaskDefinitionRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Task labels per (service, node) and task definitions, written and read back through Bolt. */
class TaskStoreTest extends CleanGraph {
    @Test
    void labelsArePerServiceAndNodeReplacedWholeAndRemovedWhenEmpty() {
        writer.writeNodeTasks(List.of(
                new NodeTasks("a", 1, List.of("t1")),
                new NodeTasks("a", 2, List.of("t1", "t2")),
                new NodeTasks("b", 1, List.of("other"))));
        assertThat(topology.nodeTasks("a", List.of(1L, 2L, 3L)))
                .isEqualTo(Map.of(1L, List.of("t1"), 2L, List.of("t1", "t2")));
        assertThat(topology.nodeTasks("b", List.of(1L, 2L))).isEqualTo(Map.of(1L, List.of("other")));

        // a replay writes the same; a change replaces the list; an empty list removes it; last one wins
        writer.writeNodeTasks(List.of(
                new NodeTasks("a", 1, List.of("t1")),
                new NodeTasks("a", 2, List.of("t2")),
                new NodeTasks("b", 1, List.of("x")),
                new NodeTasks("b", 1, List.of())));
        assertThat(topology.nodeTasks("a", List.of(1L, 2L))).isEqualTo(Map.of(1L, List.of("t1"), 2L, List.of("t2")));
        assertThat(topology.nodeTasks("b", List.of(1L))).isEmpty();
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (t:NodeTasks) RETURN count(t) AS c").single().get("c").asLong()).isEqualTo(2);
        }
    }

    @Test
    void manyNodesAreWrittenAndReadInChunks() {
        int n = TopologyReader.READ_CHUNK + GraphWriter.LABEL_CHUNK + 7;
        List<NodeTasks> labels = new ArrayList<>();
        for (long id = 1; id <= n; id++) {
            labels.add(new NodeTasks("svc", id, id % 2 == 0 ? List.of("even") : List.of("odd", "t")));
        }
        writer.writeNodeTasks(labels);
        Map<Long, List<String>> read = topology.nodeTasks("svc", LongStream.rangeClosed(0, n + 1).boxed().toList());
        assertThat(read).hasSize(n).containsEntry(2L, List.of("even")).containsEntry((long) n, List.of("odd", "t"))
                .doesNotContainKeys(0L, n + 1L);
    }

    @Test
    void definitionsAreStoredReplacedAndDeletedAndFilteredByService() {
        TaskDefinitionRecord global = new TaskDefinitionRecord("g", null, MatchType.PREFIX, "com.x.", "x", 1);
        TaskDefinitionRecord own = new TaskDefinitionRecord("o", "checkout", MatchType.REGEX,
                "^com\\.(?<svc>\\w+)\\.", "svc-${svc}", 2);
        TaskDefinitionRecord other = new TaskDefinitionRecord("p", "payments", MatchType.PREFIX, "com.p.", "p", 3);
        writer.writeTaskDefinitions(List.of(global, own, other));
        assertThat(catalogue.taskDefinitions(null)).containsExactly(global, own, other);
        assertThat(catalogue.taskDefinitions("checkout")).containsExactly(global, own);

        TaskDefinitionRecord changed = new TaskDefinitionRecord("o", null, MatchType.PREFIX, "com.y.", "y", 4);
        writer.writeTaskDefinitions(List.of(changed));
        writer.deleteTaskDefinitions(List.of("p", "never-existed"));
        assertThat(catalogue.taskDefinitions(null)).containsExactly(global, changed);
        assertThat(catalogue.taskDefinitions("payments")).containsExactly(global, changed);
    }
}
