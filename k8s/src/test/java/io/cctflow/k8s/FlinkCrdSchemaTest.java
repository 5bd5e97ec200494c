package io.cctflow.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * The FlinkDeployment against the CRD schema the operator publishes in its API jar
 * (META-INF/fabric8/), a second check besides the typed model: the schema is what the API server
 * validates a FlinkDeployment with. As for the model, spec.flinkVersion is left out (the 1.10.0
 * enum ends at v1_20) and checked against the project's Flink version by {@link StrictModels}.
 */
class FlinkCrdSchemaTest {
    private static final CrdSchema SCHEMA = CrdSchema.fromClasspath(
            "META-INF/fabric8/flinkdeployments.flink.apache.org-v1.yml", "v1beta1");

    @Test
    void flinkDeploymentFitsTheOperatorsCrdSchema() {
        assertThat(SCHEMA.validate(withoutFlinkVersion())).isEmpty();
    }

    @Test
    void unknownFieldFailsTheSchema() {
        ObjectNode broken = withoutFlinkVersion();
        ((ObjectNode) broken.path("spec").path("job")).put("upgradeModes", "savepoint");
        assertThat(SCHEMA.validate(broken)).anyMatch(m -> m.contains("upgradeModes"));
    }

    @Test
    void wrongTypeAndUnknownEnumValueFailTheSchema() {
        ObjectNode broken = withoutFlinkVersion();
        ((ObjectNode) broken.path("spec").path("job")).put("parallelism", "four");
        ((ObjectNode) broken.path("spec").path("job")).put("upgradeMode", "snapshot");
        assertThat(SCHEMA.validate(broken)).anyMatch(m -> m.contains("parallelism"))
                .anyMatch(m -> m.contains("upgradeMode"));
    }

    @Test
    void theLeftOutFlinkVersionWouldFailThe1_10Schema() {
        JsonNode original = flinkDeployment();
        assertThat(SCHEMA.validate(original)).anyMatch(m -> m.contains("flinkVersion"));
    }

    private static JsonNode flinkDeployment() {
        return Manifests.all().stream().filter(m -> m.kind().equals("FlinkDeployment")).findFirst().orElseThrow().tree();
    }

    private static ObjectNode withoutFlinkVersion() {
        ObjectNode copy = flinkDeployment().deepCopy();
        ((ObjectNode) copy.path("spec")).remove("flinkVersion");
        assertThat(copy.path("spec").path("job")).isNotEqualTo(JsonNodeFactory.instance.missingNode());
        return copy;
    }
}
