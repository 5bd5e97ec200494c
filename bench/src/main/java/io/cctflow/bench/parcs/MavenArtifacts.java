package io.cctflow.bench.parcs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Finds a release's jar in the local Maven repository, fetching it from Maven Central with {@code
 * mvn dependency:get} when it is not there yet.
 */
final class MavenArtifacts {
    private final Path repository;

    MavenArtifacts(Path repository) {
        this.repository = repository;
    }

    /** The local repository Maven uses by default ({@code ~/.m2/repository}, or {@code -Dmaven.repo.local}). */
    static MavenArtifacts local() {
        String custom = System.getProperty("maven.repo.local");
        return new MavenArtifacts(custom != null ? Path.of(custom)
                : Path.of(System.getProperty("user.home"), ".m2", "repository"));
    }

    /**
     * The jar of {@code group:artifact:version}.
     *
     * @throws IOException when it is not local and Maven could not fetch it, with Maven's exit code
     */
    Path jar(String groupId, String artifactId, String version) throws IOException, InterruptedException {
        Path jar = repository.resolve(groupId.replace('.', '/')).resolve(artifactId).resolve(version)
                .resolve(artifactId + "-" + version + ".jar");
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        String coordinates = groupId + ":" + artifactId + ":" + version;
        System.out.println("fetching " + coordinates + " from Maven Central ...");
        Process mvn = new ProcessBuilder(List.of("mvn", "-B", "-ntp", "-q", "dependency:get",
                "-Dartifact=" + coordinates, "-Dtransitive=false", "-Dmaven.repo.local=" + repository))
                .inheritIO().start();
        if (!mvn.waitFor(10, TimeUnit.MINUTES)) {
            mvn.destroyForcibly();
            throw new IOException("mvn dependency:get " + coordinates + " did not finish within 10 minutes");
        }
        if (mvn.exitValue() != 0 || !Files.isRegularFile(jar)) {
            throw new IOException("could not fetch " + coordinates + " (mvn exit " + mvn.exitValue()
                    + "); check the coordinates and that Maven Central is reachable");
        }
        return jar;
    }
}
