package io.cctflow.agent.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.schema.CodeManifest;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodFingerprint;

/**
 * The fingerprinting thread's bookkeeping, both ways in (the sweep of loaded classes and the
 * observer), with real classes in real class loaders and an {@link Instrumentation} that only
 * lists classes and takes the observer. The shaded jar in a child JVM is {@code ManifestIT}.
 */
@Timeout(60)
class ManifestCollectorTest {
    private static final InstanceInfo INSTANCE = InstanceInfo.newBuilder().setService("shop")
            .setVersion("v1").setInstanceId("host-1").setHost("host").setPid(1).setStartTimeMillis(0)
            .build();

    @TempDir
    Path classDir;

    private final List<CodeManifest> manifests = new CopyOnWriteArrayList<>();
    private final AtomicReference<ClassFileTransformer> observer = new AtomicReference<>();
    private ManifestCollector collector;

    @AfterEach
    void close() {
        if (collector != null) {
            collector.close(Duration.ofSeconds(5));
        }
    }

    @Test
    void publishesEachClassOnceWhicheverWayAndWhicheverLoaderShowsItAgain() throws Exception {
        writeClasses(Compiler.compile("com.acme.Seen",
                "package com.acme; public class Seen { int a() { return 1; } int b() { return 2; } }"));
        writeClasses(Compiler.compile("com.acme.Later",
                "package com.acme; public class Later { void c() {} }"));
        try (URLClassLoader first = loader(); URLClassLoader second = loader()) {
            Class<?> seen = first.loadClass("com.acme.Seen");
            Class<?> seenAgain = second.loadClass("com.acme.Seen");
            start(List.of(seen, seenAgain, String.class), 50);

            await().atMost(Duration.ofSeconds(30)).until(() -> !manifests.isEmpty());
            assertThat(classesOf(manifests.get(0))).containsExactly("com.acme.Seen");

            // defined again by a third loader, then a class the sweep never saw
            transform(first, "com/acme/Seen", seen);
            transform(first, "com/acme/Later", seen);
            await().atMost(Duration.ofSeconds(30)).until(() -> manifests.size() >= 2);
        }
        collector.close(Duration.ofSeconds(5));

        assertThat(manifests).extracting(CodeManifest::getSequence).containsExactly(0L, 1L);
        assertThat(classesOf(manifests.get(1))).as("only what was not published yet")
                .containsExactly("com.acme.Later");
        Map<String, Long> methodsPublished = manifests.stream().flatMap(m -> m.getMethods().stream())
                .collect(Collectors.groupingBy(m -> m.getClassName() + "." + m.getMethodName()
                        + m.getDescriptor(), Collectors.counting()));
        assertThat(methodsPublished).containsOnly(
                Map.entry("com.acme.Seen.<init>()V", 1L),
                Map.entry("com.acme.Seen.a()I", 1L),
                Map.entry("com.acme.Seen.b()I", 1L),
                Map.entry("com.acme.Later.<init>()V", 1L),
                Map.entry("com.acme.Later.c()V", 1L));
        assertThat(manifests.get(1).getStats().getClassesPublished()).isEqualTo(2);
    }

    @Test
    void publishesAtOnceWhenTheMethodsWaitingReachTheBoundOfOneManifest() throws Exception {
        int perClass = ManifestCollector.MAX_METHODS * 3 / 5;
        writeClass("com/acme/Wide1", wideClass("com/acme/Wide1", perClass));
        writeClass("com/acme/Wide2", wideClass("com/acme/Wide2", perClass));
        try (URLClassLoader loader = loader()) {
            Class<?> domainSource = loader.loadClass("com.acme.Wide1");
            // an interval no test waits for: only the bound can publish before close
            start(List.of(), TimeUnit.HOURS.toMillis(1));
            transform(loader, "com/acme/Wide1", domainSource);
            transform(loader, "com/acme/Wide2", domainSource);

            await().atMost(Duration.ofSeconds(30)).until(() -> !manifests.isEmpty());
        }
        assertThat(manifests).hasSize(1);
        assertThat(manifests.get(0).getClasses()).isEqualTo(2);
        assertThat(manifests.get(0).getMethods()).hasSize(2 * perClass);
    }

    private void start(List<Class<?>> loaded, long publishMillis) {
        collector = new ManifestCollector(instrumentation(loaded.toArray(Class<?>[]::new)),
                new ClassFilter(List.of("java.")), 1 << 24, INSTANCE, manifests::add, () -> 0,
                publishMillis, System::nanoTime, new RateLimitedLog(1, TimeUnit.MINUTES, System::nanoTime));
        collector.start();
        assertThat(observer.get()).as("the observer is registered at start").isNotNull();
    }

    /** The JVM defining {@code internalName} in {@code loader} from the file in the class directory. */
    private void transform(ClassLoader loader, String internalName, Class<?> sameDomainAs) throws Exception {
        byte[] bytes = Files.readAllBytes(classDir.resolve(internalName + ".class"));
        assertThat(observer.get().transform(loader, internalName, null, sameDomainAs.getProtectionDomain(),
                bytes)).isNull();
    }

    /** Lists {@code loaded} and keeps the transformer; everything else is unused here. */
    private Instrumentation instrumentation(Class<?>[] loaded) {
        return (Instrumentation) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getAllLoadedClasses" -> loaded;
                    case "addTransformer" -> {
                        observer.set((ClassFileTransformer) args[0]);
                        yield null;
                    }
                    case "removeTransformer" -> observer.getAndSet(null) != null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private URLClassLoader loader() throws Exception {
        return new URLClassLoader(new URL[] {classDir.toUri().toURL()}, null);
    }

    private void writeClasses(Map<String, byte[]> classes) throws Exception {
        for (Map.Entry<String, byte[]> c : classes.entrySet()) {
            writeClass(c.getKey(), c.getValue());
        }
    }

    private void writeClass(String internalName, byte[] bytes) throws Exception {
        Path file = classDir.resolve(internalName + ".class");
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }

    private static List<String> classesOf(CodeManifest manifest) {
        return manifest.getMethods().stream().map(MethodFingerprint::getClassName).distinct().toList();
    }

    /** A class of {@code methods} static methods that return at once, and nothing else. */
    private static byte[] wideClass(String internalName, int methods) {
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        w.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, internalName, null, "java/lang/Object", null);
        for (int i = 0; i < methods; i++) {
            MethodVisitor m = w.visitMethod(Opcodes.ACC_STATIC, "m" + i, "()V", null, null);
            m.visitCode();
            m.visitInsn(Opcodes.RETURN);
            m.visitMaxs(0, 0);
            m.visitEnd();
        }
        w.visitEnd();
        return w.toByteArray();
    }
}
