package io.cctflow.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Finds and reads the manifests under {@code k8s/}: every {@code .yaml} file outside the rule files. */
final class Manifests {
    /** The k8s module's directory: surefire runs tests in it. */
    static final Path K8S = Path.of("").toAbsolutePath();
    static final Path REPOSITORY = K8S.getParent();
    /** Plain Prometheus rule files and their promtool tests: not Kubernetes resources. */
    private static final Path RULES = Path.of("prometheus");

    private static final YAMLMapper YAML = new YAMLMapper();

    private Manifests() {
    }

    /** Every document of every manifest file, in file order. */
    static List<Manifest> all() {
        List<Manifest> all = new ArrayList<>();
        for (Path file : files()) {
            all.addAll(read(file));
        }
        return all;
    }

    static List<Path> files() {
        try (Stream<Path> paths = Files.walk(K8S)) {
            return paths.filter(p -> p.toString().endsWith(".yaml"))
                    .map(K8S::relativize)
                    .filter(p -> !p.startsWith(RULES) && !p.startsWith("target") && !p.startsWith("src"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The documents of one file, relative to the k8s directory. */
    static List<Manifest> read(Path file) {
        List<Manifest> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(K8S.resolve(file).toFile())) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isEmpty()) {
                    docs.add(new Manifest(file, docs.size(), doc));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return docs;
    }

    /** A plain YAML file (not a manifest), as a tree. */
    static JsonNode readYaml(Path path) {
        try {
            return YAML.readTree(path.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }
}
