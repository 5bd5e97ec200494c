package io.cctflow.agent.manifest;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles Java source in memory with the JDK's javac, for fingerprint tests. */
final class Compiler {
    private Compiler() {
    }

    /**
     * Compiles one compilation unit and returns its class files by internal name.
     *
     * @param options javac options, e.g. {@code -g:none}
     */
    static Map<String, byte[]> compile(String className, String source, String... options) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Map<String, ByteArrayOutputStream> out = new HashMap<>();
        StandardJavaFileManager standard = javac.getStandardFileManager(null, null, null);
        JavaFileManager files = new ForwardingJavaFileManager<>(standard) {
            @Override
            public JavaFileObject getJavaFileForOutput(Location location, String name, JavaFileObject.Kind kind,
                    FileObject sibling) {
                return new SimpleJavaFileObject(URI.create("mem:///" + name.replace('.', '/') + ".class"), kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        return out.computeIfAbsent(name.replace('.', '/'), n -> new ByteArrayOutputStream());
                    }
                };
            }
        };
        JavaFileObject unit = new SimpleJavaFileObject(URI.create("string:///" + className.replace('.', '/') + ".java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        StringWriter errors = new StringWriter();
        List<String> opts = new java.util.ArrayList<>(List.of("--release", "17"));
        opts.addAll(List.of(options));
        if (!javac.getTask(errors, files, null, opts, null, List.of(unit)).call()) {
            throw new IllegalStateException("javac failed on " + className + ": " + errors);
        }
        Map<String, byte[]> classes = new HashMap<>();
        out.forEach((name, bytes) -> classes.put(name, bytes.toByteArray()));
        return classes;
    }
}
