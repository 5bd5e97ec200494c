package io.cctflow.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The pod specifications inside workload manifests, with what they are referenced by. */
final class PodSpecs {

    /**
     * One pod template.
     *
     * @param owner the manifest holding it
     * @param labels the pod's labels (may be empty)
     * @param spec the pod spec: containers, initContainers, volumes
     */
    record Pod(Manifest owner, JsonNode labels, JsonNode spec) {

        String namespace() {
            return owner.namespace();
        }

        /** Containers and init containers. */
        List<JsonNode> containers() {
            List<JsonNode> all = new ArrayList<>();
            spec.path("initContainers").forEach(all::add);
            spec.path("containers").forEach(all::add);
            return all;
        }

        Optional<JsonNode> volume(String name) {
            for (JsonNode v : spec.path("volumes")) {
                if (v.path("name").asText().equals(name)) {
                    return Optional.of(v);
                }
            }
            return Optional.empty();
        }

        /** Whether every selector label is one of the pod's labels. */
        boolean matches(JsonNode matchLabels) {
            return labelsMatch(labels, matchLabels);
        }

        /** Whether a container of this pod declares the port, by name (text) or number. */
        boolean hasPort(JsonNode port) {
            for (JsonNode c : containers()) {
                if (Containers.hasPort(c, port)) {
                    return true;
                }
            }
            return false;
        }
    }

    private PodSpecs() {
    }

    /** Whether a non-empty selector's every label is among the labels. */
    static boolean labelsMatch(JsonNode labels, JsonNode matchLabels) {
        if (matchLabels.isEmpty()) {
            return false;
        }
        var it = matchLabels.fields();
        while (it.hasNext()) {
            var e = it.next();
            if (!labels.path(e.getKey()).asText("\0").equals(e.getValue().asText())) {
                return false;
            }
        }
        return true;
    }

    /** A StatefulSet's pod spec with a volume per claim template, as the controller adds them. */
    private static JsonNode withClaimVolumes(JsonNode statefulSet) {
        ObjectNode pod = statefulSet.path("template").path("spec").deepCopy();
        ArrayNode volumes = pod.has("volumes") ? (ArrayNode) pod.get("volumes") : pod.putArray("volumes");
        for (JsonNode claim : statefulSet.path("volumeClaimTemplates")) {
            String name = claim.path("metadata").path("name").asText();
            volumes.addObject().put("name", name).putObject("persistentVolumeClaim").put("claimName", name);
        }
        return pod;
    }

    /** Every pod template of Deployments, StatefulSets and FlinkDeployments. */
    static List<Pod> of(List<Manifest> manifests) {
        List<Pod> pods = new ArrayList<>();
        for (Manifest m : manifests) {
            JsonNode spec = m.tree().path("spec");
            switch (m.kind()) {
                case "Deployment" -> pods.add(new Pod(m, spec.path("template").path("metadata").path("labels"),
                        spec.path("template").path("spec")));
                case "StatefulSet" -> pods.add(new Pod(m, spec.path("template").path("metadata").path("labels"),
                        withClaimVolumes(spec)));
                case "FlinkDeployment" -> {
                    for (JsonNode template : List.of(spec.path("podTemplate"), spec.path("jobManager").path("podTemplate"),
                            spec.path("taskManager").path("podTemplate"))) {
                        if (!template.isMissingNode()) {
                            pods.add(new Pod(m, template.path("metadata").path("labels"), template.path("spec")));
                        }
                    }
                }
                default -> {
                }
            }
        }
        return pods;
    }
}
