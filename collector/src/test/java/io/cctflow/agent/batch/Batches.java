package io.cctflow.agent.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;

/** Test helpers for building and reading batches. */
final class Batches {
    private Batches() {
    }

    static InstanceInfo instance() {
        return InstanceInfo.newBuilder()
                .setService("shop")
                .setVersion("v1")
                .setInstanceId("host-1")
                .setHost("host")
                .setPid(1)
                .setStartTimeMillis(1_000)
                .setLabels(Map.of("zone", "a"))
                .build();
    }

    static MethodId m(String name) {
        return new MethodId("com.example.App", name, "()V");
    }

    /** Records one sample of the given methods (root first) with the given call-site lines. */
    static void record(SampleRecorder r, String thread, boolean truncated, List<MethodId> frames,
            int... lines) {
        r.record(frames.toArray(new MethodId[0]), lines.length == 0 ? new int[frames.size()] : lines,
                frames.size(), thread, truncated);
    }

    /** The method names of a stack, resolved through its batch's dictionary. */
    static List<String> names(SampleBatch batch, Stack stack) {
        List<String> names = new ArrayList<>();
        for (int index : stack.getFrames()) {
            MethodRef ref = batch.getMethods().get(index);
            names.add(ref.getMethodName());
        }
        return names;
    }
}
