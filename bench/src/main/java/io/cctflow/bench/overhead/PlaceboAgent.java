package io.cctflow.bench.overhead;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A Java agent that does nothing, attached to the control child of the attach rounds at the same
 * moment as our agent to the other child, so that both children go through an attach and only what
 * our agent does differs. With {@code -XX:+PrintCompilation} the placebo's attach threw away no
 * compiled code of the control, while our agent's attach made the workload's hot methods "not
 * entrant" (see bench/README.md).
 */
public final class PlaceboAgent {
    /** The jar's name in the run's directory. */
    static final String JAR = "placebo-agent.jar";

    private PlaceboAgent() {
    }

    /** Called by the JVM when attached; does nothing. */
    public static void agentmain(String arguments, Instrumentation instrumentation) {
        // nothing: the attach itself is the point
    }

    /**
     * Writes a jar holding only a manifest naming this class as its {@code Agent-Class}: the child
     * finds the class on its own class path (the benchmark's classes).
     */
    static Path writeJar(Path dir) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Agent-Class"), PlaceboAgent.class.getName());
        Path jar = dir.resolve(JAR);
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream ignored = new JarOutputStream(out, manifest)) {
            return jar;
        }
    }
}
