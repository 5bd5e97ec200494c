package io.cctflow.bench.parcs;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An application to compare across two close releases: two Maven Central coordinates of a runnable
 * jar and a workload script run by both on the same fixed offline input.
 *
 * @param name service name under which both releases are profiled
 * @param groupId Maven group of the runnable jar
 * @param artifactId Maven artifact of the runnable jar
 * @param oldVersion the older release
 * @param newVersion the newer release
 * @param script class-path resource of the workload script, run as {@code java -jar JAR SCRIPT SECONDS}
 */
public record Application(String name, String groupId, String artifactId, String oldVersion, String newVersion,
        String script) {

    /** The applications this harness knows by name; others are given with {@code --app NAME=G:A:OLD:NEW:SCRIPT}. */
    public static final Map<String, Application> BUILT_IN = Map.of(
            "jython", new Application("jython", "org.python", "jython-standalone", "2.7.3", "2.7.4",
                    "parcs/workload.py"),
            "jruby", new Application("jruby", "org.jruby", "jruby-complete", "9.4.8.0", "9.4.9.0",
                    "parcs/workload.rb"));

    public Application {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(artifactId, "artifactId");
        Objects.requireNonNull(oldVersion, "oldVersion");
        Objects.requireNonNull(newVersion, "newVersion");
        Objects.requireNonNull(script, "script");
    }

    /**
     * A built-in name, or {@code NAME=GROUP:ARTIFACT:OLD:NEW:SCRIPT} where SCRIPT is a class-path
     * resource or a file.
     *
     * @throws IllegalArgumentException naming the expected form
     */
    public static Application parse(String spec) {
        Application known = BUILT_IN.get(spec);
        if (known != null) {
            return known;
        }
        int eq = spec.indexOf('=');
        String[] parts = eq < 0 ? new String[0] : spec.substring(eq + 1).split(":");
        if (eq <= 0 || parts.length != 5) {
            throw new IllegalArgumentException("--app must be one of " + BUILT_IN.keySet()
                    + " or NAME=GROUP:ARTIFACT:OLD:NEW:SCRIPT, got '" + spec + "'");
        }
        return new Application(spec.substring(0, eq), parts[0], parts[1], parts[2], parts[3], parts[4]);
    }

    /** Coordinates of one release, {@code group:artifact:version}. */
    public String coordinates(String version) {
        return groupId + ":" + artifactId + ":" + version;
    }

    /** Arguments after {@code java [jvm options]} that run the workload for {@code seconds}. */
    public List<String> workload(Path jar, Path scriptFile, int seconds) {
        return List.of("-jar", jar.toString(), scriptFile.toString(), Integer.toString(seconds));
    }
}
