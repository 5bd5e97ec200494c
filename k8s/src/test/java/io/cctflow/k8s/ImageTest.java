package io.cctflow.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Dockerfiles, read statically: pinned base images, a non-root user, COPY sources that are
 * the jars Maven builds, and image names the manifests use. No Docker engine runs here, so the
 * images are not built (README "What was validated offline").
 */
class ImageTest {
    /** name:tag with a version-like tag, optionally @sha256:64 hex digits. */
    private static final Pattern PINNED = Pattern.compile("[a-z0-9./-]+:(?!latest\\b)[A-Za-z0-9._-]*\\d[A-Za-z0-9._-]*"
            + "(@sha256:[0-9a-f]{64})?");
    private static final String PREFIX = "cctflow/";

    static List<Dockerfile> dockerfiles() {
        return Dockerfile.all();
    }

    @Test
    void thereIsOneImagePerDeployable() {
        assertThat(dockerfiles()).extracting(Dockerfile::imageName).containsExactly("agent", "flink-job", "query-service");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dockerfiles")
    void baseImageIsPinned(Dockerfile d) {
        assertThat(d.from()).as(d.path() + " FROM").hasSize(1).allMatch(image -> PINNED.matcher(image).matches());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dockerfiles")
    void runsAsANonRootUser(Dockerfile d) {
        assertThat(d.user()).as(d.path() + " USER").isPresent();
        String user = d.user().orElseThrow().split(":")[0];
        assertThat(user).as(d.path() + " USER").isNotIn("root", "0");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dockerfiles")
    void copiesOnlyJarsMavenBuilds(Dockerfile d) {
        List<Path> outputs = new ArrayList<>();
        ProjectPom.modules().forEach(m -> outputs.addAll(ProjectPom.jarsOf(m)));
        assertThat(d.copySources()).as(d.path() + " COPY sources").isNotEmpty()
                .allSatisfy(source -> assertThat(outputs).as(d.path() + ": " + source + " is no jar of a module's POM")
                        .contains(Path.of(source)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dockerfiles")
    void buildCommandTagsTheImageTheManifestsUse(Dockerfile d) {
        String expected = PREFIX + d.imageName() + ":" + ProjectPom.version();
        assertThat(d.buildTag()).as(d.path() + " docker build -t").contains(expected);
        assertThat(manifestImages()).as("manifests using " + expected).contains(expected);
    }

    @Test
    void everyCctflowImageInTheManifestsHasADockerfile() {
        Set<String> built = new TreeSet<>();
        dockerfiles().forEach(d -> built.add(PREFIX + d.imageName() + ":" + ProjectPom.version()));
        assertThat(manifestImages().stream().filter(i -> i.startsWith(PREFIX))).isNotEmpty().allMatch(built::contains);
    }

    @Test
    void thirdPartyImagesInTheManifestsArePinned() {
        assertThat(manifestImages().stream().filter(i -> !i.startsWith(PREFIX)))
                .isNotEmpty().allMatch(i -> PINNED.matcher(i).matches());
    }

    @Test
    void baseImagesMatchTheVersionsTheProjectBuildsOn() {
        assertThat(image("flink-job")).startsWith("flink:" + ProjectPom.property("flink.version") + "-")
                .contains("java" + ProjectPom.property("maven.compiler.release"));
        assertThat(image("query-service")).startsWith("eclipse-temurin:" + ProjectPom.property("maven.compiler.release"));
        assertThat(manifestImages()).contains("neo4j:" + ProjectPom.property("neo4j.version") + "-community");
    }

    @Test
    void flinkPluginsAreThoseOfTheImagesFlinkVersion() {
        List<String> plugins = new ArrayList<>();
        for (PodSpecs.Pod pod : PodSpecs.of(Manifests.all())) {
            for (JsonNode c : pod.containers()) {
                for (JsonNode e : c.path("env")) {
                    if (e.path("name").asText().equals("ENABLE_BUILT_IN_PLUGINS")) {
                        plugins.addAll(List.of(e.path("value").asText().split(";")));
                    }
                }
            }
        }
        assertThat(plugins).isNotEmpty().allMatch(p -> p.endsWith("-" + ProjectPom.property("flink.version") + ".jar"));
    }

    @Test
    void pinningRuleRejectsFloatingTags() {
        assertThat(PINNED.matcher("busybox:latest").matches()).isFalse();
        assertThat(PINNED.matcher("busybox").matches()).isFalse();
        assertThat(PINNED.matcher("flink:java17").matches()).isTrue(); // a digit: a version-like tag
        assertThat(PINNED.matcher("eclipse-temurin:17@sha256:abc").matches()).isFalse();
    }

    private static String image(String name) {
        return dockerfiles().stream().filter(d -> d.imageName().equals(name)).findFirst().orElseThrow().from().get(0);
    }

    /** Every container image and FlinkDeployment image in the manifests. */
    private static Set<String> manifestImages() {
        Set<String> images = new TreeSet<>();
        for (Manifest m : Manifests.all()) {
            if (m.kind().equals("FlinkDeployment")) {
                images.add(m.tree().path("spec").path("image").asText());
            }
        }
        for (PodSpecs.Pod pod : PodSpecs.of(Manifests.all())) {
            for (JsonNode c : pod.containers()) {
                if (c.has("image")) {
                    images.add(c.path("image").asText());
                }
            }
        }
        return images;
    }
}
