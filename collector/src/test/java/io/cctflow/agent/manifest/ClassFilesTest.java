package io.cctflow.agent.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassFilesTest {
    private static final byte[] CLASS_FILE = Compiler.compile("com.acme.Stub", "package com.acme; public class Stub {}")
            .get("com/acme/Stub");

    /** Defines classes from bytes made at run time, as JRuby's JIT and Jython's compiler do, with a code source. */
    private static final class GeneratingLoader extends URLClassLoader {
        GeneratingLoader(URL codeSource) {
            super(new URL[] {codeSource}, null);
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    @Test
    void aClassLoadedFromItsFileHasOne(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("com/acme"));
        Files.write(dir.resolve("com/acme/Stub.class"), CLASS_FILE);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null)) {
            assertThat(loader.loadClass("com.acme.Stub").getClassLoader()).isSameAs(loader);
            assertThat(ClassFiles.exists(loader, "com/acme/Stub")).isTrue();
            assertThat(ClassFiles.read(loader, "com/acme/Stub")).isEqualTo(CLASS_FILE);
        }
    }

    @Test
    void aClassGeneratedAtRunTimeHasNone(@TempDir Path dir) throws Exception {
        try (GeneratingLoader loader = new GeneratingLoader(dir.toUri().toURL())) {
            assertThat(loader.define("com.acme.Stub", CLASS_FILE).getClassLoader()).isSameAs(loader);
            assertThat(ClassFiles.exists(loader, "com/acme/Stub")).isFalse();
            assertThat(ClassFiles.read(loader, "com/acme/Stub")).isNull();
        }
    }

    @Test
    void theBootLoaderServesTheJdksClassFiles() {
        assertThat(ClassFiles.exists(null, "java/lang/String")).isTrue();
        assertThat(ClassFiles.exists(null, "com/acme/NoSuchClass")).isFalse();
    }
}
