package io.cctflow.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reading a container's ports and environment from its manifest tree. */
final class Containers {
    private static final Pattern DEPENDENT_VARIABLE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    private Containers() {
    }

    /** Whether the container declares the port: a name (text) or a containerPort (number). */
    static boolean hasPort(JsonNode container, JsonNode port) {
        for (JsonNode p : container.path("ports")) {
            if (port.isTextual() ? p.path("name").asText().equals(port.asText())
                    : p.path("containerPort").asInt(-1) == port.asInt(-2)) {
                return true;
            }
        }
        return false;
    }

    /** The container named so in the pod, if any. */
    static Optional<JsonNode> named(PodSpecs.Pod pod, String name) {
        return pod.containers().stream().filter(c -> c.path("name").asText().equals(name)).findFirst();
    }

    /**
     * The container's environment as the kubelet would set it: literal values with {@code $(VAR)}
     * expanded from earlier variables, downward-API fields from the pod (labels their values,
     * the pod's name and node as stand-ins), and Secret values as {@code secret:<name>/<key>}.
     */
    static Map<String, String> environment(PodSpecs.Pod pod, JsonNode container) {
        Map<String, String> env = new LinkedHashMap<>();
        for (JsonNode e : container.path("env")) {
            String name = e.path("name").asText();
            JsonNode from = e.path("valueFrom");
            if (from.has("secretKeyRef")) {
                JsonNode ref = from.path("secretKeyRef");
                env.put(name, "secret:" + ref.path("name").asText() + "/" + ref.path("key").asText());
            } else if (from.has("fieldRef")) {
                env.put(name, field(pod, from.path("fieldRef").path("fieldPath").asText()));
            } else {
                env.put(name, expand(e.path("value").asText(), env));
            }
        }
        return env;
    }

    /** The value a downward-API field path gives; throws for a label the pod does not carry. */
    static String field(PodSpecs.Pod pod, String path) {
        Matcher label = Pattern.compile("metadata\\.labels\\['([^']+)'\\]").matcher(path);
        if (label.matches()) {
            JsonNode value = pod.labels().path(label.group(1));
            if (value.isMissingNode()) {
                throw new IllegalArgumentException("fieldRef " + path + ": the pod has no label " + label.group(1));
            }
            return value.asText();
        }
        return switch (path) {
            case "metadata.name" -> pod.owner().name() + "-5d8f7c9b4-x2x7q";
            case "metadata.namespace" -> pod.namespace();
            case "spec.nodeName" -> "node-1";
            default -> throw new IllegalArgumentException("fieldRef " + path + " is not one these manifests should use");
        };
    }

    private static String expand(String value, Map<String, String> earlier) {
        Matcher m = DEPENDENT_VARIABLE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = earlier.get(m.group(1));
            if (v == null) {
                throw new IllegalArgumentException("$(" + m.group(1) + ") names no earlier variable");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        return m.appendTail(out).toString();
    }
}
