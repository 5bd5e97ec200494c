package io.cctflow.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.agent.batch.MethodId;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StackCorpusTest {

    private static StackCorpus corpus(String text) throws Exception {
        return StackCorpus.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** A Random whose nextDouble returns the given values in turn. */
    private static Random fixed(double... values) {
        return new Random() {
            private static final long serialVersionUID = 1L;
            private int next;

            @Override
            public double nextDouble() {
                return values[next++];
            }
        };
    }

    @Test
    void committedCorpusLoadsWithValidStacks() {
        StackCorpus c = StackCorpus.load();

        assertThat(c.stackCount()).isGreaterThan(100);
        for (int s = 0; s < c.stackCount(); s++) {
            assertThat(c.frames(s)).isNotEmpty();
            for (int m : c.frames(s)) {
                assertThat(m).isBetween(0, c.methodCount() - 1);
            }
            assertThat(c.lines(s)).hasSameSizeAs(c.frames(s));
            assertThat(c.lines(s)[0]).isZero();
        }
    }

    @Test
    void drawsEachStackInProportionToItsCount() throws Exception {
        StackCorpus c = corpus("a.A.a 3\na.A.b 1\na.A.c 2\n");
        // targets: floor(u * 6); stack 0 covers 0..2, stack 1 covers 3, stack 2 covers 4..5
        Random r = fixed(0.0, 0.49, 0.5, 0.66, 0.67, 0.999);

        assertThat(new int[] {c.draw(r), c.draw(r), c.draw(r), c.draw(r), c.draw(r), c.draw(r)})
                .containsExactly(0, 0, 1, 1, 2, 2);
    }

    @Test
    void recorderLinesReadBackAsTheSameStacks() throws Exception {
        MethodId[] frames = {
            new MethodId("java.lang.Thread", "run", "()V"),
            new MethodId("a.B", "call", "(Ljava/lang/Object;)Ljava/lang/Object;"),
            new MethodId("a.C", "leaf", "()[I"),
        };
        int[] callSiteLines = {0, 17, 42};
        String line = CorpusRecorder.collapsed(frames, callSiteLines, 3, "pool-#-thread-#") + " 5";

        StackCorpus c = corpus(line);

        assertThat(c.stackCount()).isEqualTo(1);
        assertThat(c.sampleCount()).isEqualTo(5);
        assertThat(c.thread(0)).isEqualTo("pool-#-thread-#");
        assertThat(c.lines(0)).containsExactly(0, 17, 42);
        for (int i = 0; i < 3; i++) {
            assertThat(c.method(c.frames(0)[i])).isEqualTo(frames[i]);
        }
    }

    @Test
    void malformedLineIsNamedByNumber() {
        assertThatThrownBy(() -> corpus("a.A.a 3\na.A.b x\n")).hasMessageContaining("stack corpus line 2");
    }
}
