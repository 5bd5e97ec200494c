package io.cctflow.agent;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * What the collector's integration tests run: the shaded agent jar as {@code package} built it
 * (the POM passes its path), the test classes a host JVM runs, where the hosts' output goes, and
 * this JVM's {@code java}.
 */
public final class ShippedJar {
    /** The shaded agent jar, absolute. */
    public static final Path JAR = Paths.get(System.getProperty("cctflow.agentJar",
            "target/cctflow-collector-0.1.0-SNAPSHOT.jar")).toAbsolutePath();
    /** The test classes, the class path of host JVMs. */
    public static final Path TEST_CLASSES = Paths.get(System.getProperty("cctflow.testClasses",
            "target/test-classes"));
    /** Where the tests keep their hosts' output, next to the jar. */
    public static final Path LOGS = JAR.getParent().resolve("it-logs");

    private ShippedJar() {
    }

    /** The {@code java} launcher of the JVM running the tests. */
    public static String java() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }
}
