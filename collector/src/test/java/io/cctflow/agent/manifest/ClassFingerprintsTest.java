package io.cctflow.agent.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

import io.cctflow.schema.MethodFingerprint;

class ClassFingerprintsTest {
    private static final String SUM = """
            package demo;
            public class Sample {
                public static int sum(int[] values, String label) {
                    int s = 0;
                    for (int i = 0; i < values.length; i++) {
                        s += values[i];
                    }
                    if (label.isEmpty()) {
                        throw new IllegalArgumentException("empty label " + s);
                    }
                    try {
                        return Math.addExact(s, label.length());
                    } catch (ArithmeticException e) {
                        return Integer.MAX_VALUE;
                    }
                }
                %s
            }
            """;

    /** Other members, placed before the method: they shift the constant pool and the line numbers. */
    private static final String OTHER_MEMBERS_FIRST = """
            package demo;
            public class Sample {
                static final String GREETING = "hello";
                static double ratio = 0.25;
                static long big() { return 1L << 40; }
                static String greet(String who) { return GREETING + ", " + who + java.util.List.of(1, 2); }



                public static int sum(int[] values, String label) {
                    int s = 0;
                    for (int i = 0; i < values.length; i++) {
                        s += values[i];
                    }
                    if (label.isEmpty()) {
                        throw new IllegalArgumentException("empty label " + s);
                    }
                    try {
                        return Math.addExact(s, label.length());
                    } catch (ArithmeticException e) {
                        return Integer.MAX_VALUE;
                    }
                }
            }
            """;

    private static byte[] sample(String source, String... options) {
        return Compiler.compile("demo.Sample", source, options).get("demo/Sample");
    }

    private static Map<String, Long> bySignature(byte[] classFile) {
        return ClassFingerprints.of(classFile).bySignature();
    }

    private static long sumFingerprint(byte[] classFile) {
        Long f = bySignature(classFile).get("demo.Sample.sum([ILjava/lang/String;)I");
        assertThat(f).as("fingerprint of sum").isNotNull();
        return f;
    }

    @Test
    void namesEveryMethodWithTheBinaryClassNameAndDescriptor() {
        Map<String, Long> methods = bySignature(sample(SUM.formatted("static void other() {}")));

        assertThat(methods).containsOnlyKeys("demo.Sample.<init>()V", "demo.Sample.sum([ILjava/lang/String;)I",
                "demo.Sample.other()V");
    }

    @Test
    void theSameMethodCompiledTwiceHasTheSameFingerprint() {
        byte[] a = sample(SUM.formatted(""));
        byte[] b = sample(SUM.formatted(""));
        // other members first, on other lines, without debug information: another class file
        byte[] c = sample(OTHER_MEMBERS_FIRST, "-g:none");
        byte[] d = sample(SUM.formatted(""), "-g");

        assertThat(c).isNotEqualTo(a);
        assertThat(d).isNotEqualTo(a);
        assertThat(sumFingerprint(b)).isEqualTo(sumFingerprint(a));
        assertThat(sumFingerprint(c)).isEqualTo(sumFingerprint(a));
        assertThat(sumFingerprint(d)).isEqualTo(sumFingerprint(a));
    }

    @Test
    void aChangeToTheBodyChangesTheFingerprint() {
        long original = sumFingerprint(sample(SUM.formatted("")));
        List<String[]> edits = List.of(
                new String[] {"s += values[i];", "s += values[i] * 2;"},          // an instruction more
                new String[] {"\"empty label \"", "\"blank label \""},             // a string constant
                new String[] {"Math.addExact", "Math.multiplyExact"},             // a call target
                new String[] {"int i = 0;", "int i = 1;"},                         // an int operand
                new String[] {"ArithmeticException e", "RuntimeException e"},      // a handler type
                new String[] {"i < values.length", "i <= values.length - 1"},      // control flow
                new String[] {"public static int sum", "public static synchronized int sum"}); // access

        for (String[] edit : edits) {
            String changed = SUM.formatted("").replace(edit[0], edit[1]);
            assertThat(changed).as("edit %s applies", edit[0]).isNotEqualTo(SUM.formatted(""));
            assertThat(sumFingerprint(sample(changed))).as("after replacing %s by %s", edit[0], edit[1])
                    .isNotEqualTo(original);
        }
    }

    @Test
    void reorderingTheConstantPoolKeepsEveryFingerprint() {
        byte[] original = sample(OTHER_MEMBERS_FIRST);
        // a new pool that starts with constants of our own and then the class's own in visiting
        // order: every reference in the code points to another index
        ClassWriter writer = new ClassWriter(0);
        for (int i = 0; i < 7; i++) {
            writer.newUTF8("padding-" + i);
        }
        writer.newConst("empty label ");
        writer.newMethod("java/lang/Math", "addExact", "(II)I", false);
        writer.newConst(1L << 40);
        new ClassReader(original).accept(writer, 0);
        byte[] reordered = writer.toByteArray();

        assertThat(poolTags(reordered)).as("constant pool tags by index").isNotEqualTo(poolTags(original));
        assertThat(bySignature(reordered)).isEqualTo(bySignature(original)).hasSize(5);
    }

    /** The tag of each constant-pool entry, by index (0 for the unusable slots after long and double). */
    private static List<Integer> poolTags(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        List<Integer> tags = new ArrayList<>();
        for (int i = 1; i < reader.getItemCount(); i++) {
            int offset = reader.getItem(i);
            tags.add(offset == 0 ? 0 : classFile[offset - 1] & 0xff);
        }
        return tags;
    }

    @Test
    void aDamagedClassFileIsRejectedWithAClearError() {
        byte[] good = sample(SUM.formatted(""));
        byte[] truncated = Arrays.copyOf(good, good.length / 2);

        assertThatThrownBy(() -> ClassFingerprints.of(truncated)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("class");
        assertThatThrownBy(() -> ClassFingerprints.of(new byte[] {1, 2, 3})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a readable class file");
    }

    /**
     * Every class of {@code java.base}, fingerprinted twice with identical results; prints the cost
     * (on a shared machine: a figure, not a limit).
     */
    @Test
    void fingerprintsEveryClassOfJavaBaseTheSameWayTwice() throws IOException {
        List<byte[]> classes = new ArrayList<>();
        try (FileSystem jrt = FileSystems.newFileSystem(URI.create("jrt:/"), Map.of());
                Stream<Path> files = Files.walk(jrt.getPath("modules", "java.base"))) {
            for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class")
                    && !f.getFileName().toString().equals("module-info.class"))::iterator) {
                classes.add(Files.readAllBytes(p));
            }
        }
        long bytes = classes.stream().mapToLong(c -> c.length).sum();
        List<List<MethodFingerprint>> first = new ArrayList<>();
        long[] nanos = new long[3];
        for (int round = 0; round < 3; round++) {
            List<List<MethodFingerprint>> results = new ArrayList<>();
            long start = System.nanoTime();
            for (byte[] c : classes) {
                results.add(ClassFingerprints.of(c).methods());
            }
            nanos[round] = System.nanoTime() - start;
            if (round == 0) {
                first = results;
            } else {
                assertThat(results).as("round %d equals round 0", round).isEqualTo(first);
            }
        }
        long methods = first.stream().mapToLong(List::size).sum();
        Arrays.sort(nanos);
        System.out.printf("fingerprint cost: %d classes of java.base, %d bytes, %d methods; median of 3 rounds "
                + "%.1f ms = %.1f us/class = %.1f MB/s (shared machine)%n", classes.size(), bytes, methods,
                nanos[1] / 1e6, nanos[1] / 1e3 / classes.size(), bytes / (nanos[1] / 1e9) / 1e6);
        assertThat(classes).hasSizeGreaterThan(1_000);
        assertThat(methods).isGreaterThan(classes.size());
    }
}
