package io.cctflow.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.Test;

/**
 * One source for the alerting rules: the PrometheusRule's groups are exactly those of
 * k8s/prometheus/cctflow-rules.yaml, the file promtool checks and unit-tests in CI.
 */
class PrometheusRuleTest {

    @Test
    void prometheusRuleGroupsEqualTheRulesFile() throws Exception {
        JsonNode rules = Manifests.readYaml(Manifests.K8S.resolve("prometheus/cctflow-rules.yaml")).path("groups");
        Manifest rule = Manifests.all().stream().filter(m -> m.kind().equals("PrometheusRule")).findFirst().orElseThrow();
        ObjectNode expected = new YAMLMapper().createObjectNode();
        expected.set("groups", rules);
        assertThat(rule.tree().path("spec").path("groups"))
                .as("spec.groups of " + rule + " must equal k8s/prometheus/cctflow-rules.yaml; paste this as its spec:\n"
                        + new YAMLMapper().writeValueAsString(expected))
                .isEqualTo(rules);
        assertThat(rules).isNotEmpty();
    }
}
