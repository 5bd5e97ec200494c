package io.cctflow.k8s;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;

/**
 * Binds manifests to the typed models the projects publish (fabric8 for core kinds, Strimzi's
 * {@code io.strimzi:api}, the Flink operator's API, fabric8's Prometheus-operator model) and
 * rejects what those models do not declare.
 *
 * <p>The models keep unknown fields in an "additional properties" map (a Jackson any-setter) or
 * ignore them; here the any-setters are removed and unknown properties fail, so a misspelt or
 * misplaced field is an error naming its path, as the API server's strict field validation
 * would report it. Scalars are not coerced ("3" is no number, 3 no boolean).
 */
final class StrictModels {
    private static final List<Class<? extends HasMetadata>> MODELS = List.of(Namespace.class, Secret.class,
            Service.class, Deployment.class, StatefulSet.class, HorizontalPodAutoscaler.class,
            PodDisruptionBudget.class, Kafka.class, KafkaNodePool.class, KafkaTopic.class, FlinkDeployment.class,
            ServiceMonitor.class, PrometheusRule.class);

    /** "apiVersion/kind" to model class, from the models' own group, version and kind. */
    private static final Map<String, Class<? extends HasMetadata>> BY_TYPE = byType();

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .addModule(new SimpleModule("strict").setDeserializerModifier(new RejectUnknown()))
            .build();

    private StrictModels() {
    }

    private static Map<String, Class<? extends HasMetadata>> byType() {
        Map<String, Class<? extends HasMetadata>> m = new LinkedHashMap<>();
        for (Class<? extends HasMetadata> c : MODELS) {
            m.put(HasMetadata.getApiVersion(c) + "/" + HasMetadata.getKind(c), c);
            for (String version : servedVersions(c)) {
                m.put(HasMetadata.getGroup(c) + "/" + version + "/" + HasMetadata.getKind(c), c);
            }
        }
        return m;
    }

    /**
     * Strimzi's models list every version their CRD serves in {@code VERSIONS} (0.51: v1 and
     * v1beta2; the annotation names only the stored one); one class binds them all.
     */
    @SuppressWarnings("unchecked")
    private static List<String> servedVersions(Class<?> model) {
        try {
            return (List<String>) model.getField("VERSIONS").get(null);
        } catch (NoSuchFieldException e) {
            return List.of();
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The apiVersion/kind pairs this validator knows. */
    static Map<String, Class<? extends HasMetadata>> knownTypes() {
        return BY_TYPE;
    }

    /**
     * Binds a manifest to its model.
     *
     * @throws IllegalArgumentException naming the manifest and the field for an unknown type, an
     *     unknown field or a value of the wrong type
     */
    static HasMetadata bind(Manifest manifest) {
        Class<? extends HasMetadata> model = BY_TYPE.get(manifest.apiVersion() + "/" + manifest.kind());
        if (model == null) {
            throw new IllegalArgumentException(manifest + ": no model for apiVersion '" + manifest.apiVersion()
                    + "' kind '" + manifest.kind() + "'; known: " + BY_TYPE.keySet());
        }
        JsonNode tree = manifest.tree();
        if (model == FlinkDeployment.class) {
            tree = withoutFlinkVersion(manifest);
        }
        try {
            return MAPPER.treeToValue(tree, model);
        } catch (Exception e) {
            throw new IllegalArgumentException(manifest + ": " + e.getMessage(), e);
        }
    }

    /**
     * The FlinkDeployment without {@code spec.flinkVersion}, after checking it against the
     * project's Flink version. The operator API on Maven Central stops at 1.10.0, whose
     * FlinkVersion enum ends at v1_20; the job is built on Flink 2.x, which newer operators know
     * as v2_x. So this one field is checked against {@code flink.version} of the parent pom
     * instead of the 1.10.0 enum; every other field is bound strictly.
     */
    private static JsonNode withoutFlinkVersion(Manifest manifest) {
        String expected = ProjectPom.flinkVersionEnum();
        String given = manifest.tree().path("spec").path("flinkVersion").asText();
        if (!expected.equals(given)) {
            throw new IllegalArgumentException(manifest + ": spec.flinkVersion is '" + given + "', but the job is built on Flink "
                    + ProjectPom.property("flink.version") + " (" + expected + ")");
        }
        ObjectNode copy = manifest.tree().deepCopy();
        ((ObjectNode) copy.path("spec")).remove("flinkVersion");
        return copy;
    }

    /** Removes any-setters and "ignore unknown" from every bean, so unknown properties fail. */
    private static final class RejectUnknown extends BeanDeserializerModifier {
        private static final long serialVersionUID = 1L;

        @Override
        public BeanDeserializerBuilder updateBuilder(DeserializationConfig config, BeanDescription description,
                BeanDeserializerBuilder builder) {
            builder.setAnySetter(null);
            builder.setIgnoreUnknownProperties(false);
            return builder;
        }
    }
}
