package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.flink.cct.BatchTrees;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.model.NodeTasks;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.TaskMatchType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;

/**
 * Brute force: whatever the order in which batches and definition changes (add, change, delete,
 * invalid) arrive, the labels the operator has emitted, folded per (service, node), equal cct-core's
 * labelling from scratch of each execution's final tree with the final definitions of its service.
 */
class IncrementalLabellingProperties {
    private static final int ALPHABET = 8;
    private static final List<ExecutionId> EXECUTIONS = List.of(
            new ExecutionId("a", "v1", "a-1"), new ExecutionId("a", "v2", "a-2"), new ExecutionId("b", "v1", "b-1"));
    private static final String[] SERVICES = {null, "a", "b"};

    @Property(tries = 60)
    void incrementalLabelsEqualLabelsOfTheFinalTreesFromScratch(@ForAll long seed) throws Exception {
        Random random = new Random(seed);
        List<Object> events = new ArrayList<>(); // SampleBatch or RawRecord (a definition record)
        Map<ExecutionId, Integer> sequences = new HashMap<>();
        int batches = 4 + random.nextInt(10);
        for (int i = 0; i < batches; i++) {
            ExecutionId e = EXECUTIONS.get(random.nextInt(EXECUTIONS.size()));
            int seq = sequences.merge(e, 1, Integer::sum);
            events.add(TestBatches.random(e, seq, 60_000L * seq, random, 1 + random.nextInt(5), ALPHABET));
        }
        int changes = 1 + random.nextInt(10);
        for (int i = 0; i < changes; i++) {
            events.add(randomDefinitionRecord(random, i));
        }
        Collections.shuffle(events, random);

        Map<String, List<String>> stored = new TreeMap<>();
        Map<String, io.cctflow.schema.TaskDefinition> live = new TreeMap<>();
        KeyedBroadcastOperatorTestHarness<String, RawRecord, RawRecord, BatchCounts> harness = MergeHarness.open();
        try {
            long offset = 0;
            for (Object event : events) {
                if (event instanceof SampleBatch b) {
                    harness.processElement(new StreamRecord<>(TestBatches.record(b, offset++)));
                } else {
                    RawRecord r = (RawRecord) event;
                    harness.processBroadcastElement(new StreamRecord<>(r));
                    track(live, r);
                }
                var queue = harness.getSideOutput(Outputs.NODE_TASKS);
                while (queue != null && !queue.isEmpty()) {
                    NodeTasks t = queue.poll().getValue();
                    if (t.tasks().isEmpty()) {
                        stored.remove(t.service() + "|" + t.nodeId());
                    } else {
                        stored.put(t.service() + "|" + t.nodeId(), t.tasks());
                    }
                }
            }
        } finally {
            harness.close();
        }
        assertThat(stored).as("seed %d", seed).isEqualTo(fromScratch(events, live.values()));
    }

    /** Records the definitions the operator should end up with: valid ones by id; tombstones and invalid ones remove. */
    private static void track(Map<String, io.cctflow.schema.TaskDefinition> live, RawRecord r) throws Exception {
        String id = new String(r.key, java.nio.charset.StandardCharsets.UTF_8);
        if (r.value == null) {
            live.remove(id);
            return;
        }
        var d = io.cctflow.schema.TaskDefinition.fromByteBuffer(java.nio.ByteBuffer.wrap(r.value));
        try {
            ExpectedLabels.core(d);
            live.put(id, d);
        } catch (IllegalArgumentException invalid) {
            live.remove(id);
        }
    }

    private static Map<String, List<String>> fromScratch(List<Object> events,
            Iterable<io.cctflow.schema.TaskDefinition> definitions) {
        Map<ExecutionId, Cct> trees = new LinkedHashMap<>();
        for (Object event : events) {
            if (event instanceof SampleBatch b) {
                var i = b.getInstance();
                Cct tree = trees.computeIfAbsent(new ExecutionId(i.getService(), i.getVersion(), i.getInstanceId()),
                        e -> new Cct());
                BatchTrees.mergeComplete(b, tree);
            }
        }
        Map<String, List<String>> expected = new TreeMap<>();
        trees.forEach((execution, tree) -> ExpectedLabels.of(tree, execution.service(), definitions, ALPHABET)
                .forEach((id, tasks) -> expected.put(execution.service() + "|" + id, tasks)));
        return expected;
    }

    /** A random add/change, tombstone or invalid definition for one of four ids. */
    private static RawRecord randomDefinitionRecord(Random random, long offset) {
        String id = "d" + random.nextInt(4);
        String service = SERVICES[random.nextInt(SERVICES.length)];
        int m = random.nextInt(ALPHABET);
        return switch (random.nextInt(6)) {
            case 0 -> TestTasks.tombstone(id, offset);
            case 1 -> TestTasks.record(TestTasks.regex(id, service, "^T\\.(m" + m, "bad"), offset); // invalid regex
            case 2 -> TestTasks.record(TestTasks.definition(id, service, TaskMatchType.PREFIX, "T.m" + m, "p" + m),
                    offset);
            case 3 -> TestTasks.record(TestTasks.regex(id, service, "^T\\.(?<n>m[" + m + "-7])$", "g-${n}"), offset);
            default -> TestTasks.record(TestTasks.regex(id, service, "^T\\.m" + m + "$", "t" + m), offset);
        };
    }
}
