package io.cctflow.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Kubernetes references between the manifests: Secrets and ConfigMaps (and their keys), volumes,
 * container and Service ports named by probes, Services and ServiceMonitors, selectors, the HPA's
 * target. What the API server does not check at apply time and a pod only reports when it fails
 * to start.
 */
final class ResourceReferences {
    private final List<Manifest> manifests;
    private final List<PodSpecs.Pod> pods;
    private final List<String> problems = new ArrayList<>();

    private ResourceReferences(List<Manifest> manifests) {
        this.manifests = manifests;
        this.pods = PodSpecs.of(manifests);
    }

    /** Every dangling reference, one line each; empty when all resolve. */
    static List<String> check(List<Manifest> manifests) {
        ResourceReferences r = new ResourceReferences(manifests);
        r.pods.forEach(r::checkPod);
        r.manifests.forEach(r::checkResource);
        return r.problems;
    }

    private void checkPod(PodSpecs.Pod pod) {
        for (JsonNode v : pod.spec().path("volumes")) {
            if (v.has("secret")) {
                String name = v.path("secret").path("secretName").asText();
                v.path("secret").path("items").forEach(item -> requireKey(pod.owner(), "Secret", name,
                        item.path("key").asText()));
                requireKey(pod.owner(), "Secret", name, null);
            }
            if (v.has("configMap")) {
                String name = v.path("configMap").path("name").asText();
                v.path("configMap").path("items").forEach(item -> requireKey(pod.owner(), "ConfigMap", name,
                        item.path("key").asText()));
                requireKey(pod.owner(), "ConfigMap", name, null);
            }
        }
        for (JsonNode c : pod.containers()) {
            String where = pod.owner() + " container " + c.path("name").asText();
            for (JsonNode e : c.path("env")) {
                JsonNode from = e.path("valueFrom");
                if (from.has("secretKeyRef")) {
                    requireKey(pod.owner(), "Secret", from.path("secretKeyRef").path("name").asText(),
                            from.path("secretKeyRef").path("key").asText());
                }
                if (from.has("configMapKeyRef")) {
                    requireKey(pod.owner(), "ConfigMap", from.path("configMapKeyRef").path("name").asText(),
                            from.path("configMapKeyRef").path("key").asText());
                }
            }
            try {
                Containers.environment(pod, c);
            } catch (IllegalArgumentException e) {
                problems.add(where + ": " + e.getMessage());
            }
            for (JsonNode mount : c.path("volumeMounts")) {
                if (pod.volume(mount.path("name").asText()).isEmpty()) {
                    problems.add(where + ": volumeMount " + mount.path("name").asText() + " names no volume of the pod");
                }
            }
            for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
                JsonNode handler = c.path(probe);
                for (String kind : List.of("httpGet", "tcpSocket", "grpc")) {
                    JsonNode port = handler.path(kind).path("port");
                    if (!port.isMissingNode() && !Containers.hasPort(c, port)) {
                        problems.add(where + ": " + probe + " port " + port.asText() + " is not a port of the container");
                    }
                }
            }
        }
    }

    private void checkResource(Manifest m) {
        JsonNode spec = m.tree().path("spec");
        switch (m.kind()) {
            case "Service" -> checkService(m, spec);
            case "ServiceMonitor" -> checkServiceMonitor(m, spec);
            case "HorizontalPodAutoscaler" -> {
                JsonNode target = spec.path("scaleTargetRef");
                if (find(m.namespace(), target.path("kind").asText(), target.path("name").asText()).isEmpty()) {
                    problems.add(m + ": scaleTargetRef " + target.path("kind").asText() + " "
                            + target.path("name").asText() + " does not exist");
                }
            }
            case "PodDisruptionBudget" -> {
                if (podsSelectedBy(m.namespace(), spec.path("selector").path("matchLabels")).isEmpty()) {
                    problems.add(m + ": selector matches no pod");
                }
            }
            case "StatefulSet" -> {
                if (find(m.namespace(), "Service", spec.path("serviceName").asText()).isEmpty()) {
                    problems.add(m + ": serviceName " + spec.path("serviceName").asText() + " is no Service");
                }
            }
            default -> {
            }
        }
    }

    private void checkService(Manifest m, JsonNode spec) {
        List<PodSpecs.Pod> selected = podsSelectedBy(m.namespace(), spec.path("selector"));
        if (selected.isEmpty()) {
            problems.add(m + ": selector matches no pod");
            return;
        }
        for (JsonNode port : spec.path("ports")) {
            JsonNode target = port.has("targetPort") ? port.path("targetPort") : port.path("port");
            if (selected.stream().noneMatch(p -> p.hasPort(target))) {
                problems.add(m + ": targetPort " + target.asText() + " is not a port of the selected pods");
            }
        }
    }

    private void checkServiceMonitor(Manifest m, JsonNode spec) {
        List<Manifest> services = manifests.stream()
                .filter(s -> s.kind().equals("Service") && s.namespace().equals(m.namespace()))
                .filter(s -> PodSpecs.labelsMatch(s.tree().path("metadata").path("labels"), spec.path("selector").path("matchLabels")))
                .toList();
        if (services.isEmpty()) {
            problems.add(m + ": selector matches no Service");
        }
        for (JsonNode endpoint : spec.path("endpoints")) {
            String port = endpoint.path("port").asText();
            boolean found = services.stream().anyMatch(s -> {
                for (JsonNode p : s.tree().path("spec").path("ports")) {
                    if (p.path("name").asText().equals(port)) {
                        return true;
                    }
                }
                return false;
            });
            if (!found) {
                problems.add(m + ": endpoint port " + port + " is not a named port of the selected Services");
            }
            JsonNode credentials = endpoint.path("authorization").path("credentials");
            if (!credentials.isMissingNode()) {
                requireKey(m, "Secret", credentials.path("name").asText(), credentials.path("key").asText());
            }
        }
    }

    private List<PodSpecs.Pod> podsSelectedBy(String namespace, JsonNode matchLabels) {
        return pods.stream().filter(p -> p.namespace().equals(namespace) && p.matches(matchLabels)).toList();
    }

    /** Records a problem unless the Secret or ConfigMap exists in the owner's namespace (with the key). */
    private void requireKey(Manifest owner, String kind, String name, String key) {
        Optional<Manifest> found = find(owner.namespace(), kind, name);
        if (found.isEmpty()) {
            problems.add(owner + ": " + kind + " " + name + " does not exist in namespace " + owner.namespace());
        } else if (key != null && !found.get().tree().path("data").has(key)
                && !found.get().tree().path("stringData").has(key)) {
            problems.add(owner + ": " + kind + " " + name + " has no key " + key);
        }
    }

    private Optional<Manifest> find(String namespace, String kind, String name) {
        return manifests.stream().filter(m -> m.kind().equals(kind) && m.name().equals(name)
                && m.namespace().equals(namespace)).findFirst();
    }
}
