package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.apache.flink.connector.base.source.reader.SourceReaderBase;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The job jar as it ships ({@code target/cctflow-flink-job.jar}, built by {@code mvn package}):
 * Flink is not inside (the cluster provides it), the connectors and drivers are, and what could
 * clash with a Flink distribution's class path is relocated. That the jar runs on a real session
 * cluster is shown by the standalone module's cluster test.
 */
class JobJarIT {
    private static final String SHADED = "io/cctflow/flink/shaded/";
    /** Packages that must only appear relocated. */
    private static final List<String> RELOCATED = List.of("org/apache/kafka/", "org/apache/avro/",
            "org/apache/commons/", "com/fasterxml/jackson/", "io/netty/", "reactor/", "org/reactivestreams/");

    private static List<String> entries;
    private static JarFile jar;

    @BeforeAll
    static void open() throws Exception {
        jar = new JarFile(Path.of(System.getProperty("cctflow.jobJar")).toFile());
        entries = jar.stream().map(ZipEntry::getName).filter(n -> !n.endsWith("/")).toList();
    }

    @Test
    void namesTheJobAsMainClass() throws Exception {
        assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo(SamplesJob.class.getName());
        assertThat(entries).contains("io/cctflow/flink/SamplesJob.class", "io/cctflow/graph/GraphSchema.class",
                "io/cctflow/schema/SampleBatch.class", "org/neo4j/driver/Driver.class");
    }

    /** The only Flink classes in the jar are those of the Kafka connector and the connector base it is built on. */
    @Test
    void bundlesNoFlinkButTheConnector() throws Exception {
        Set<String> connectors = new TreeSet<>();
        for (Class<?> c : List.of(KafkaSource.class, SourceReaderBase.class)) {
            try (JarFile connector = new JarFile(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toFile())) {
                connector.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class")).forEach(connectors::add);
            }
        }
        Set<String> flink = new TreeSet<>(entries.stream().filter(n -> n.startsWith("org/apache/flink/")).toList());
        assertThat(flink).isEqualTo(connectors);
        assertThat(entries).doesNotContain("org/apache/flink/streaming/api/environment/StreamExecutionEnvironment.class",
                "org/apache/flink/api/common/functions/Function.class");
    }

    @Test
    void relocatesWhatCouldClashWithFlinksClassPath() {
        for (String pkg : RELOCATED) {
            assertThat(entries).as(pkg).noneMatch(n -> n.startsWith(pkg));
            assertThat(entries).as(pkg).anyMatch(n -> n.startsWith(SHADED + pkg) && n.endsWith(".class"));
        }
        assertThat(entries).as("logging comes from the Flink JVM").noneMatch(n -> n.startsWith("org/slf4j/"));
        assertThat(entries).noneMatch(n -> n.startsWith("META-INF/versions/") || n.endsWith("module-info.class"));
    }

    @Test
    void ourCodeAndTheConnectorReferToTheRelocatedClasses() throws Exception {
        assertThat(classText("io/cctflow/flink/SamplesJob.class"))
                .contains(SHADED + "org/apache/kafka/clients/admin/Admin")
                .doesNotContain("Lorg/apache/kafka/");
        assertThat(classText("org/apache/flink/connector/kafka/source/KafkaSource.class"))
                .contains(SHADED + "org/apache/kafka/")
                .doesNotContain("Lorg/apache/kafka/");
        assertThat(classText("io/cctflow/schema/SampleBatch.class")).contains(SHADED + "org/apache/avro/");
    }

    private static String classText(String entry) throws Exception {
        try (InputStream in = jar.getInputStream(jar.getEntry(entry))) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
