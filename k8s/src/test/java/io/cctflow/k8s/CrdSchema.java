package io.cctflow.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * A CustomResourceDefinition's OpenAPI v3 schema as a JSON schema that, like the API server's
 * strict field validation, rejects fields the schema does not declare (objects with
 * {@code properties} get {@code additionalProperties: false} unless they preserve unknown
 * fields). CEL rules ({@code x-kubernetes-validations}) and defaulting are not applied.
 */
final class CrdSchema {
    private final JsonSchema schema;

    private CrdSchema(JsonSchema schema) {
        this.schema = schema;
    }

    /** The schema of one served version of a CRD file on the class path (e.g. in an operator's API jar). */
    static CrdSchema fromClasspath(String resource, String version) {
        JsonNode crd;
        try (InputStream in = CrdSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no " + resource + " on the class path");
            }
            crd = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("name").asText().equals(version)) {
                ObjectNode openApi = v.path("schema").path("openAPIV3Schema").deepCopy();
                // the API server itself checks these three; a CRD's schema leaves them out
                ObjectNode top = (ObjectNode) openApi.path("properties");
                top.putObject("apiVersion").put("type", "string");
                top.putObject("kind").put("type", "string");
                top.putObject("metadata").put("type", "object");
                closeObjects(openApi);
                return new CrdSchema(JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(openApi));
            }
        }
        throw new IllegalStateException(resource + " serves no version " + version);
    }

    /** Every violation, as "path: message"; empty when the document fits. */
    List<String> validate(JsonNode document) {
        return schema.validate(document).stream().map(ValidationMessage::getMessage).sorted().toList();
    }

    private static void closeObjects(JsonNode node) {
        if (node instanceof ObjectNode o) {
            // the CRD pairs it with anyOf [integer, string], which says the same to a JSON schema
            o.remove("x-kubernetes-int-or-string");
            if (o.has("properties") && !o.has("additionalProperties")
                    && !o.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
                o.put("additionalProperties", false);
            }
            for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) o::fields) {
                closeObjects(e.getValue());
            }
        } else if (node.isArray()) {
            node.forEach(CrdSchema::closeObjects);
        }
    }
}
