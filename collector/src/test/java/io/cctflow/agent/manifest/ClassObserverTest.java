package io.cctflow.agent.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class ClassObserverTest {
    private static final byte[] CLASS_FILE = Compiler.compile("com.acme.Stub", "package com.acme; class Stub {}")
            .get("com/acme/Stub");

    private final ClassQueue queue = new ClassQueue(1 << 20);
    private final ClassObserver observer = new ClassObserver(new ClassFilter(List.of("java.")), queue,
            new ManifestCounters());

    @Test
    void queuesClassesDefinedFromAClassFile() throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[0])) {
            ProtectionDomain jar = domain(new URL("file:/opt/app/app.jar"));
            assertThat(observer.transform(loader, "com/acme/Stub", null, jar, CLASS_FILE)).isNull();
            assertThat(queue.poll(0, TimeUnit.NANOSECONDS).internalName()).isEqualTo("com/acme/Stub");
        }
        // the boot loader passes no protection domain; its classes come from the image or -Xbootclasspath
        observer.transform(null, "com/acme/Stub", null, null, CLASS_FILE);
        assertThat(queue.poll(0, TimeUnit.NANOSECONDS)).isNotNull();
    }

    /**
     * Run-time generators (jnr-ffi's {@code LinuxLibC$jnr$ffi$0} in Jython) define classes without
     * a code source and may emit other bytes in every run: fingerprinting them made two runs of one
     * jar differ by up to 165 "modified" methods.
     */
    @Test
    void skipsClassesGeneratedAtRunTimeWithoutACodeSource() throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[0])) {
            observer.transform(loader, "jnr/posix/LinuxLibC$jnr$ffi$0", null, domain(null), CLASS_FILE);
            observer.transform(loader, "com/acme/Generated", null, null, CLASS_FILE);
            observer.transform(loader, "com/acme/Generated2", null, new ProtectionDomain(null, null), CLASS_FILE);
        }
        assertThat(queue.poll(0, TimeUnit.NANOSECONDS)).isNull();
        assertThat(queue.bytes()).isZero();
    }

    private static ProtectionDomain domain(URL location) {
        return new ProtectionDomain(new CodeSource(location, (Certificate[]) null), null);
    }
}
