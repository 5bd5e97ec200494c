package io.cctflow.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every manifest binds to its project's typed model, unknown fields rejected. */
class ManifestModelTest {

    static Stream<Manifest> manifests() {
        return Manifests.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("manifests")
    void bindsToItsTypedModelWithoutUnknownFields(Manifest manifest) {
        HasMetadata bound = StrictModels.bind(manifest);
        assertThat(bound.getMetadata().getName()).as(manifest + " metadata.name").isNotBlank();
        assertThat(bound.getKind()).isEqualTo(manifest.kind());
    }

    @Test
    void everyPartOfTheDeploymentHasItsManifest() {
        Map<String, Long> kinds = manifests().collect(java.util.stream.Collectors.groupingBy(Manifest::kind,
                java.util.stream.Collectors.counting()));
        assertThat(kinds).containsKeys("Kafka", "KafkaNodePool", "FlinkDeployment", "StatefulSet", "Deployment",
                "Service", "HorizontalPodAutoscaler", "ServiceMonitor", "PrometheusRule", "Secret", "Namespace");
        assertThat(kinds.get("KafkaTopic")).as("topics: samples, manifests, tasks, dead letters").isEqualTo(4L);
        assertThat(kinds.get("KafkaNodePool")).as("KRaft controllers and brokers").isEqualTo(2L);
    }

    @Test
    void everyServerSideResourceIsInTheCctflowNamespace() {
        manifests().filter(m -> !m.kind().equals("Namespace") && !m.file().startsWith("agent"))
                .forEach(m -> assertThat(m.namespace()).as(m.toString()).isEqualTo("cctflow"));
    }

    @Test
    void kafkaTopicConfigKeysAreKafkaTopicConfigs() {
        Set<String> known = topicConfigNames();
        manifests().filter(m -> m.kind().equals("KafkaTopic")).forEach(m -> m.tree().path("spec").path("config")
                .fieldNames().forEachRemaining(key -> assertThat(known).as(m + " config key").contains(key)));
    }

    @Test
    void topicConfigNamesAreKafkasOwn() {
        assertThat(topicConfigNames()).contains("retention.ms", "cleanup.policy", "min.insync.replicas")
                .doesNotContain("retention.msec", "log.retention.ms");
    }

    /** The values of Kafka's TopicConfig.*_CONFIG constants: every topic-level setting. */
    private static Set<String> topicConfigNames() {
        Set<String> names = new HashSet<>();
        for (Field f : TopicConfig.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getName().endsWith("_CONFIG")) {
                try {
                    names.add((String) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return names;
    }

    @Test
    void manifestFilesAreFoundOutsideTheRuleFiles() {
        List<java.nio.file.Path> files = Manifests.files();
        assertThat(files).isNotEmpty().noneMatch(p -> p.startsWith("prometheus"));
    }
}
