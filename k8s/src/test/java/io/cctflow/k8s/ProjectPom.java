package io.cctflow.k8s;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** Facts from the project's POMs: versions, modules, and the jar each module builds. */
final class ProjectPom {
    private static final Document PARENT = parse(Manifests.REPOSITORY.resolve("pom.xml"));

    private ProjectPom() {
    }

    /** A property of the parent POM; fails if it is not there. */
    static String property(String name) {
        Element properties = child(PARENT.getDocumentElement(), "properties")
                .orElseThrow(() -> new IllegalStateException("parent pom has no <properties>"));
        return child(properties, name).map(Node::getTextContent).map(String::trim)
                .orElseThrow(() -> new IllegalStateException("parent pom has no property " + name));
    }

    /** The project's version, e.g. 0.1.0-SNAPSHOT. */
    static String version() {
        return text(PARENT.getDocumentElement(), "version");
    }

    /** The Flink operator's name of the project's Flink version: 2.2.1 is v2_2. */
    static String flinkVersionEnum() {
        String[] parts = property("flink.version").split("\\.");
        return "v" + parts[0] + "_" + parts[1];
    }

    static List<String> modules() {
        List<String> modules = new ArrayList<>();
        NodeList list = PARENT.getElementsByTagName("module");
        for (int i = 0; i < list.getLength(); i++) {
            modules.add(list.item(i).getTextContent().trim());
        }
        return modules;
    }

    /**
     * The paths, from the repository root, of the jars {@code mvn package} leaves in a module's
     * target directory: the main jar ({@code <build><finalName>} if the module sets one, else
     * artifactId-version) and every {@code <outputFile>} (the shade plugin's own jar).
     */
    static List<Path> jarsOf(String module) {
        Document pom = parse(Manifests.REPOSITORY.resolve(module).resolve("pom.xml"));
        Element project = pom.getDocumentElement();
        String artifactId = text(project, "artifactId");
        String name = child(project, "build").flatMap(build -> child(build, "finalName"))
                .map(Node::getTextContent).map(String::trim)
                .orElse(artifactId + "-${project.version}");
        List<Path> jars = new ArrayList<>();
        jars.add(Path.of(module, "target", resolve(name, artifactId) + ".jar"));
        NodeList outputs = pom.getElementsByTagName("outputFile");
        for (int i = 0; i < outputs.getLength(); i++) {
            String file = resolve(outputs.item(i).getTextContent().trim(), artifactId)
                    .replace("${project.build.directory}", "target");
            jars.add(Path.of(module).resolve(file).normalize());
        }
        return jars;
    }

    private static String resolve(String text, String artifactId) {
        return text.replace("${project.version}", version()).replace("${project.artifactId}", artifactId);
    }

    private static String text(Element parent, String name) {
        return child(parent, name).map(Node::getTextContent).map(String::trim)
                .orElseThrow(() -> new IllegalStateException("no <" + name + "> in <" + parent.getTagName() + ">"));
    }

    private static Optional<Element> child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    private static Document parse(Path pom) {
        if (!Files.isRegularFile(pom)) {
            throw new IllegalStateException("no POM at " + pom);
        }
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(pom.toFile());
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + pom + ": " + e.getMessage(), e);
        }
    }
}
