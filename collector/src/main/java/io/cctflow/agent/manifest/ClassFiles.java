package io.cctflow.agent.manifest;

import java.io.IOException;
import java.io.InputStream;

/**
 * A class's file as its defining loader serves it, {@code com/acme/Foo.class}: what makes a class
 * part of the deployment for its {@code CodeManifest}. Bytes a program generates at run time and
 * defines (jnr-ffi's native stubs, Jython's modules compiled from {@code .py} files, JRuby's JIT
 * output) have no such file; they may differ between runs of the same release (jnr-ffi numbers its
 * stubs' fields in the order reflection lists methods, JRuby compiles what its JIT picked), so they
 * are not fingerprinted. Stateless and thread-safe; the loader's own code runs on the caller's
 * thread (the fingerprinting thread, never a class-loading one).
 */
final class ClassFiles {
    private ClassFiles() {
    }

    /** Whether the loader (null: the boot loader) serves the class file of {@code internalName}. */
    static boolean exists(ClassLoader loader, String internalName) {
        String resource = internalName + ".class";
        try {
            return (loader == null ? ClassLoader.getSystemResource(resource) : loader.getResource(resource)) != null;
        } catch (RuntimeException | LinkageError e) {
            return false; // the loader's own code failed: treated as no file
        }
    }

    /** The class file as the loader (null: the boot loader) serves it; null if there is none. */
    static byte[] read(ClassLoader loader, String internalName) {
        String resource = internalName + ".class";
        try (InputStream in = loader == null ? ClassLoader.getSystemResourceAsStream(resource)
                : loader.getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException | RuntimeException | LinkageError e) {
            return null; // the loader's own code failed: this class stays unfingerprinted
        }
    }
}
