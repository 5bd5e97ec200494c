package io.cctflow.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;

/**
 * One YAML document of a manifest file, as a tree.
 *
 * @param file the file, relative to the k8s directory
 * @param index the document's position in the file, from 0
 * @param tree the document; callers must not modify it (use {@link #copy()})
 */
record Manifest(Path file, int index, JsonNode tree) {

    String apiVersion() {
        return tree.path("apiVersion").asText();
    }

    String kind() {
        return tree.path("kind").asText();
    }

    String name() {
        return tree.path("metadata").path("name").asText();
    }

    String namespace() {
        return tree.path("metadata").path("namespace").asText();
    }

    /** A copy whose tree may be changed (for the deliberately broken copies). */
    Manifest copy() {
        return new Manifest(file, index, tree.deepCopy());
    }

    @Override
    public String toString() {
        return file + "#" + index + " (" + kind() + " " + name() + ")";
    }
}
