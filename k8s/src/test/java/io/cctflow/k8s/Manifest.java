package io.cctflow.k8s;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

    /**
     * Replaces an existing field or list element of this (copied) tree.
     *
     * @throws IllegalStateException if the pointer names nothing
     */
    void replace(String pointer, JsonNode value) {
        JsonPointer path = JsonPointer.compile(pointer);
        if (tree.at(path).isMissingNode()) {
            throw new IllegalStateException(this + ": nothing at " + pointer);
        }
        JsonNode parent = tree.at(path.head());
        if (parent instanceof ObjectNode o) {
            o.set(path.last().getMatchingProperty(), value);
        } else {
            ((ArrayNode) parent).set(path.last().getMatchingIndex(), value);
        }
    }

    @Override
    public String toString() {
        return file + "#" + index + " (" + kind() + " " + name() + ")";
    }
}
