package io.cctflow.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deliberately broken copies of every manifest fail to bind: an unknown field at the top, an
 * unknown field deep inside each kind's spec, and a value of the wrong type.
 */
class BrokenManifestTest {
    /** Per kind: an object deep in the spec that takes no free-form keys. */
    private static final Map<String, String> DEEP_OBJECT = Map.ofEntries(
            Map.entry("Namespace", "/metadata"),
            Map.entry("Secret", "/metadata"),
            Map.entry("Kafka", "/spec/kafka/listeners/0"),
            Map.entry("KafkaNodePool", "/spec/storage/volumes/0"),
            Map.entry("KafkaTopic", "/spec"),
            Map.entry("FlinkDeployment", "/spec/taskManager/resource"),
            Map.entry("StatefulSet", "/spec/template/spec/containers/0/startupProbe/tcpSocket"),
            Map.entry("Deployment", "/spec/template/spec/containers/0/env/0"),
            Map.entry("Service", "/spec/ports/0"),
            Map.entry("HorizontalPodAutoscaler", "/spec/metrics/0/resource/target"),
            Map.entry("PodDisruptionBudget", "/spec/selector"),
            Map.entry("ServiceMonitor", "/spec/endpoints/0/authorization/credentials"),
            Map.entry("PrometheusRule", "/spec/groups/0/rules/0"));

    /** Per kind: a field whose value gets the wrong type. */
    private static final Map<String, String> TYPED_FIELD = Map.ofEntries(
            Map.entry("Namespace", "/metadata/labels"),
            Map.entry("Secret", "/type"),
            Map.entry("Kafka", "/spec/kafka/listeners/0/port"),
            Map.entry("KafkaNodePool", "/spec/replicas"),
            Map.entry("KafkaTopic", "/spec/partitions"),
            Map.entry("FlinkDeployment", "/spec/job/parallelism"),
            Map.entry("StatefulSet", "/spec/template/spec/containers/0/ports"),
            Map.entry("Deployment", "/spec/template/spec/containers/0/ports/0/containerPort"),
            Map.entry("Service", "/spec/ports/0/port"),
            Map.entry("HorizontalPodAutoscaler", "/spec/maxReplicas"),
            Map.entry("PodDisruptionBudget", "/spec/selector/matchLabels"),
            Map.entry("ServiceMonitor", "/spec/endpoints/0/interval"),
            Map.entry("PrometheusRule", "/spec/groups/0/rules"));

    static Stream<Arguments> brokenCopies() {
        return Manifests.all().stream().flatMap(m -> Stream.of(
                Arguments.of(m, "unknown top-level field", withField(m, "", "specification"), "\"specification\""),
                Arguments.of(m, "unknown field at " + deep(m), withField(m, deep(m), "cctflowTypo"), "\"cctflowTypo\""),
                Arguments.of(m, "wrong type at " + typed(m), withWrongType(m, typed(m)), lastName(typed(m)))));
    }

    /** The error names the manifest and the field: Jackson's path ends in the field's name. */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("brokenCopies")
    void brokenCopyFailsToBind(Manifest original, String breakage, Manifest broken, String field) {
        assertThat(broken.tree()).as("the copy differs from " + original).isNotEqualTo(original.tree());
        assertThatThrownBy(() -> StrictModels.bind(broken)).as(breakage + " in " + original)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(original.file().toString())
                .hasMessageContaining(field);
    }

    /** The last named segment of a pointer, quoted as Jackson's reference chain quotes it. */
    private static String lastName(String pointer) {
        String[] parts = pointer.split("/");
        for (int i = parts.length - 1; i > 0; i--) {
            if (!parts[i].chars().allMatch(Character::isDigit)) {
                return "\"" + parts[i] + "\"";
            }
        }
        throw new IllegalArgumentException("no named segment in " + pointer);
    }

    @Test
    void everyKindHasItsBreakages() {
        List<String> kinds = Manifests.all().stream().map(Manifest::kind).distinct().toList();
        assertThat(DEEP_OBJECT).containsKeys(kinds.toArray(String[]::new));
        assertThat(TYPED_FIELD).containsKeys(kinds.toArray(String[]::new));
    }

    @Test
    void unknownTypeIsRejected() {
        Manifest m = Manifests.all().get(0).copy();
        ((ObjectNode) m.tree()).put("kind", "Namespaces");
        assertThatThrownBy(() -> StrictModels.bind(m)).hasMessageContaining("no model for");
    }

    @Test
    void flinkVersionOtherThanTheProjectsIsRejected() {
        Manifest m = Manifests.all().stream().filter(x -> x.kind().equals("FlinkDeployment")).findFirst().orElseThrow()
                .copy();
        ((ObjectNode) m.tree().path("spec")).put("flinkVersion", "v1_20");
        assertThatThrownBy(() -> StrictModels.bind(m)).hasMessageContaining("spec.flinkVersion");
    }

    private static String deep(Manifest m) {
        return DEEP_OBJECT.getOrDefault(m.kind(), "");
    }

    private static String typed(Manifest m) {
        return TYPED_FIELD.getOrDefault(m.kind(), "/metadata/name");
    }

    private static Manifest withField(Manifest original, String pointer, String field) {
        Manifest copy = original.copy();
        JsonNode target = pointer.isEmpty() ? copy.tree() : copy.tree().at(JsonPointer.compile(pointer));
        if (!target.isObject()) {
            throw new IllegalStateException(original + ": no object at " + pointer);
        }
        ((ObjectNode) target).put(field, "x");
        return copy;
    }

    /** An object where a scalar belongs, a string where an object or a list belongs. */
    private static Manifest withWrongType(Manifest original, String pointer) {
        Manifest copy = original.copy();
        JsonNode old = copy.tree().at(JsonPointer.compile(pointer));
        copy.replace(pointer, old.isContainerNode() ? JsonNodeFactory.instance.textNode("wrong-type")
                : JsonNodeFactory.instance.objectNode().put("wrong", "type"));
        return copy;
    }
}
