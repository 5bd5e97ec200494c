package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.bench.overhead.ThreadCpu.Kind;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    @Test
    void nativeThreadNamesMapToKinds() {
        // names as /proc shows them: at most 15 characters
        assertThat(ThreadCpu.kindOf("worker-2")).isEqualTo(Kind.WORKERS);
        assertThat(ThreadCpu.kindOf("cctflow-sampler")).isEqualTo(Kind.AGENT);
        assertThat(ThreadCpu.kindOf("kafka-producer-")).isEqualTo(Kind.AGENT);
        assertThat(ThreadCpu.kindOf("JFR Sampler")).isEqualTo(Kind.JFR);
        assertThat(ThreadCpu.kindOf("JFR Recorder Th")).isEqualTo(Kind.JFR);
        assertThat(ThreadCpu.kindOf("C2 CompilerThre")).isEqualTo(Kind.JIT);
        assertThat(ThreadCpu.kindOf("G1 Conc#0")).isEqualTo(Kind.GC);
        assertThat(ThreadCpu.kindOf("GC Thread#1")).isEqualTo(Kind.GC);
        assertThat(ThreadCpu.kindOf("VM Thread")).isEqualTo(Kind.OTHER);
    }

    @Test
    void formatsEveryKindInOrder() {
        assertThat(ThreadCpu.format(new long[] {1, 2, 3, 4, 5, 6}))
                .isEqualTo("workers=1 agent=2 jfr=3 jit=4 gc=5 other=6");
    }
}
