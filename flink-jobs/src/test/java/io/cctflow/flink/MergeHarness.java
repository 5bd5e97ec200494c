package io.cctflow.flink;

import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.flink.cct.CctMergeFunction;
import io.cctflow.flink.ingest.RawRecord;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.heap.HeapKeyedStateBackend;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;

/** Operator harnesses of {@link CctMergeFunction}: batches on the keyed input, task definitions broadcast. */
final class MergeHarness {
    private MergeHarness() {
    }

    static CctMergeFunction function() {
        return new CctMergeFunction(1, 3, Duration.ofMinutes(1), 2);
    }

    /** An open harness of {@link #function()}. */
    static KeyedBroadcastOperatorTestHarness<String, RawRecord, RawRecord, BatchCounts> open() throws Exception {
        return ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(function(), SamplesJob::recordKey,
                Types.STRING, Outputs.TASK_DEFINITIONS);
    }

    /** A harness of {@link #function()} restored from {@code snapshot} and opened. */
    static KeyedBroadcastOperatorTestHarness<String, RawRecord, RawRecord, BatchCounts> restore(
            OperatorSubtaskState snapshot) throws Exception {
        var harness = new KeyedBroadcastOperatorTestHarness<>(
                new CoBroadcastWithKeyedOperator<>(function(), List.of(Outputs.TASK_DEFINITIONS)),
                SamplesJob::recordKey, Types.STRING, 1, 1, 0);
        harness.initializeState(snapshot);
        harness.open();
        return harness;
    }

    /** Keyed state entries (one per state and key) of a harness on the heap backend. */
    static int numKeyedStateEntries(KeyedBroadcastOperatorTestHarness<String, RawRecord, RawRecord, BatchCounts> h) {
        return ((HeapKeyedStateBackend<?>) h.getOperator().getKeyedStateBackend()).numKeyValueStateEntries();
    }
}
