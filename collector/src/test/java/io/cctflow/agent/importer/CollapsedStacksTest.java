package io.cctflow.agent.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.cctflow.agent.batch.MethodId;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class CollapsedStacksTest {
    private final CollapsedStacks parser = new CollapsedStacks();

    private List<String> frames() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < parser.depth(); i++) {
            names.add(parser.frames()[i].toString());
        }
        return names;
    }

    private List<Integer> lines() {
        return Arrays.stream(Arrays.copyOf(parser.lines(), parser.depth())).boxed().toList();
    }

    @Test
    void parsesFlameGraphStyleFramesRootFirstWithPlaceholderDescriptor() throws Exception {
        parser.parse("java.lang.Thread.run;com.shop.Cart.total;com.shop.Cart.sum 42");

        assertThat(frames()).containsExactly("java.lang.Thread.run(?)", "com.shop.Cart.total(?)",
                "com.shop.Cart.sum(?)");
        assertThat(lines()).containsExactly(0, 0, 0);
        assertThat(parser.thread()).isEqualTo("unknown");
        assertThat(parser.count()).isEqualTo(42);
    }

    @Test
    void parsesAsyncProfilerSlashesSuffixesLinesAndThreads() throws Exception {
        parser.parse("[pool-3-thread-17 tid=4711];java/lang/Thread.run:840_[j];"
                + "com/shop/Cart.total:17_[i];com/shop/Cart.sum_[0];start_thread_[k] 7");

        assertThat(frames()).containsExactly("java.lang.Thread.run(?)", "com.shop.Cart.total(?)",
                "com.shop.Cart.sum(?)", "[native].start_thread(?)");
        // call-site lines: each frame gets the line its parent was executing
        assertThat(lines()).containsExactly(0, 840, 17, 0);
        assertThat(parser.thread()).isEqualTo("pool-#-thread-#");
        assertThat(parser.count()).isEqualTo(7);
    }

    @Test
    void keepsDescriptorsWhenTheyArePresent() throws Exception {
        parser.parse("java/lang/Thread.run()V;a/B.c(ILjava/lang/String;)J:12 1");

        assertThat(parser.frames()[1]).isEqualTo(new MethodId("a.B", "c", "(ILjava/lang/String;)J"));
        assertThat(parser.frames()[0]).isEqualTo(new MethodId("java.lang.Thread", "run", "()V"));
    }

    @Test
    void normalisesRunTimeClassNamesAsTheAgentDoes() throws Exception {
        // async-profiler writes hidden classes with their address; two runs differ only there
        parser.parse("a/B.run:3;com/acme/Foo$$Lambda$14/0x0000000800c0b440.apply:0;"
                + "java/lang/invoke/LambdaForm$MH/0x00007f1ff06f8000.invokeExact_MT;a/B.lambda$run$0:9 1");
        List<String> first = frames();
        parser.parse("a/B.run:3;com/acme/Foo$$Lambda$15/0x0000000801d0a000.apply:0;"
                + "java/lang/invoke/LambdaForm$MH/0x00007fb8e4704000.invokeExact_MT;a/B.lambda$run$0:9 1");

        assertThat(frames()).isEqualTo(first).containsExactly("a.B.run(?)", "com.acme.Foo$$Lambda$#.apply(?)",
                "java.lang.invoke.LambdaForm$MH.invokeExact_MT(?)", "a.B.lambda$run$0(?)");
    }

    @Test
    void normalisesJrubyCallSiteNumbersAsTheAgentDoes() throws Exception {
        parser.parse("workload.RUBY$method$fib$0:4;workload.invokeOther2:fib:4;workload.invokeOtherOneFixnum17:+ 1");

        assertThat(frames()).containsExactly("workload.RUBY$method$fib$0(?)", "workload.invokeOther#:fib(?)",
                "workload.invokeOtherOneFixnum#:+(?)");
        assertThat(lines()).containsExactly(0, 4, 4);
    }

    @Test
    void objectReturnTypesEndNoFrame() throws Exception {
        parser.parse("a.B.c(Ljava/lang/Object;)Ljava/lang/Object;:77;a.B.d()[Ljava/lang/String;:5;a.B.e()[I 2");

        assertThat(frames()).containsExactly("a.B.c(Ljava/lang/Object;)Ljava/lang/Object;",
                "a.B.d()[Ljava/lang/String;", "a.B.e()[I");
        assertThat(parser.lines()[1]).isEqualTo(77);
        assertThat(parser.lines()[2]).isEqualTo(5);
    }

    @Test
    void threadFrameWithoutTidAndFramesWithSpaces() throws Exception {
        parser.parse("[main];a.B.c;operator new 3");

        assertThat(parser.thread()).isEqualTo("main");
        assertThat(frames()).containsExactly("a.B.c(?)", "[native].operator new(?)");
    }

    @Test
    void rejectsLinesThatAreNotStacksWithACount() {
        assertThatThrownBy(() -> parser.parse("a;b;c")).hasMessageContaining("no count");
        assertThatThrownBy(() -> parser.parse("a;b;c x")).hasMessageContaining("'x' is not a positive integer");
        assertThatThrownBy(() -> parser.parse("a;b;c -3")).hasMessageContaining("not a positive integer");
        assertThatThrownBy(() -> parser.parse("a;b;c 0")).hasMessageContaining("count is 0");
        assertThatThrownBy(() -> parser.parse("a;;c 1")).hasMessageContaining("empty frame at position 2");
        assertThatThrownBy(() -> parser.parse("[main] 1")).hasMessageContaining("no frames");
        assertThatThrownBy(() -> parser.parse("a.B.c 99999999999999999999"))
                .hasMessageContaining("not a positive integer");
    }

    /** A frame as a generator sees it, and how it is written. */
    record Frame(String className, String method, String descriptor, int line, String suffix) {
        String render(boolean slashes) {
            return (slashes ? className.replace('.', '/') : className) + "." + method
                    + (descriptor == null ? "" : descriptor) + (line > 0 ? ":" + line : "") + suffix;
        }
    }

    /** A stack with optional thread and its count. */
    record Line(String thread, List<Frame> frames, long count, boolean slashes) {
        String render() {
            StringBuilder sb = new StringBuilder();
            if (thread != null) {
                sb.append('[').append(thread).append(" tid=").append(count % 1000).append("];");
            }
            for (int i = 0; i < frames.size(); i++) {
                sb.append(i == 0 ? "" : ";").append(frames.get(i).render(slashes));
            }
            return sb.append(' ').append(count).toString();
        }
    }

    @Property(tries = 300)
    void parsingARenderedStackGivesItBack(@ForAll("stacks") Line line) throws Exception {
        parser.parse(line.render());

        List<MethodId> expectedFrames = line.frames().stream().map(f -> new MethodId(f.className(),
                f.method(), f.descriptor() == null ? CollapsedStacks.NO_DESCRIPTOR : f.descriptor()))
                .toList();
        List<Integer> expectedLines = new ArrayList<>();
        for (int i = 0; i < line.frames().size(); i++) {
            expectedLines.add(i == 0 ? 0 : line.frames().get(i - 1).line());
        }
        assertThat(Arrays.asList(Arrays.copyOf(parser.frames(), parser.depth())))
                .containsExactlyElementsOf(expectedFrames);
        assertThat(lines()).containsExactlyElementsOf(expectedLines);
        assertThat(parser.thread()).isEqualTo(line.thread() == null ? "unknown"
                : io.cctflow.core.ThreadNames.normalise(line.thread()));
        assertThat(parser.count()).isEqualTo(line.count());
    }

    @Provide
    Arbitrary<Line> stacks() {
        Arbitrary<String> ident = Arbitraries.strings().withCharRange('a', 'z').withChars('_', '$')
                .ofMinLength(1).ofMaxLength(8);
        Arbitrary<String> className = ident.list().ofMinSize(1).ofMaxSize(4)
                .map(parts -> String.join(".", parts));
        Arbitrary<String> method = Arbitraries.oneOf(ident, Arbitraries.of("<init>", "lambda$run$0"));
        Arbitrary<String> descriptor = Arbitraries.of(null, "()V", "(I)J", "([Ljava/lang/String;)V",
                "(Ljava/lang/Object;)Ljava/lang/Object;", "()[[Ljava/lang/String;", "()[I");
        Arbitrary<Frame> frame = Combinators.combine(className, method, descriptor,
                Arbitraries.integers().between(0, 5_000),
                Arbitraries.of("", "_[j]", "_[i]", "_[0]", "_[1]")).as(Frame::new);
        Arbitrary<String> thread = Arbitraries.oneOf(Arbitraries.just(null),
                Arbitraries.of("main", "pool-3-thread-17", "http nio 8080 exec 2", "worker-[1]"));
        return Combinators.combine(thread, frame.list().ofMinSize(1).ofMaxSize(30),
                Arbitraries.longs().between(1, Long.MAX_VALUE / 1_000), Arbitraries.of(true, false))
                .as(Line::new);
    }
}
