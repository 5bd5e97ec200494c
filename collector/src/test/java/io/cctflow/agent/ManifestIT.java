package io.cctflow.agent;

import static io.cctflow.agent.ShippedJar.JAR;
import static io.cctflow.agent.ShippedJar.LOGS;
import static io.cctflow.agent.ShippedJar.TEST_CLASSES;
import static io.cctflow.agent.ShippedJar.java;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.cctflow.agent.manifest.ClassFingerprints;
import io.cctflow.core.ExecutionId;
import io.cctflow.schema.CodeManifest;
import io.cctflow.schema.ManifestStats;
import io.cctflow.schema.MethodFingerprint;
import io.cctflow.servers.TestServers;
import io.cctflow.servers.TopicRecords;
import io.cctflow.workload.ManifestWorkload;

/**
 * Code fingerprints end to end: the shipped agent jar on a child JVM, publishing to the shared
 * real broker; the test reads the {@link CodeManifest}s back.
 */
class ManifestIT {
    private static final String WORKLOAD = ManifestWorkload.class.getName();

    @Test
    @Timeout(180)
    void publishesTheWorkloadsOwnMethodsOnceWithTheFingerprintsOfItsClassFilesAndNoJdkClass() throws Exception {
        TestServers servers = TestServers.get();
        String samples = "manifest-it-samples";
        String manifests = "manifest-it-manifests";
        servers.createTopic(samples, 1);
        servers.createTopic(manifests, 1);
        Files.createDirectories(LOGS);
        Path out = LOGS.resolve("manifest.stdout");
        Path err = LOGS.resolve("manifest.stderr");
        Path stop = LOGS.resolve("manifest.stop");
        Files.deleteIfExists(stop);
        String agentArgs = "bootstrap.servers=" + servers.kafkaBootstrapServers() + ",topic=" + samples
                + ",manifest.topic=" + manifests + ",service=manifest-it,version=v7,instance=m-1,flush=1000";
        Process host = new ProcessBuilder(java(),
                "-Xmx256m", "-javaagent:" + JAR + "=" + agentArgs, "-cp", TEST_CLASSES.toString(), WORKLOAD,
                stop.toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();

        Set<String> wanted = Set.of(WORKLOAD, WORKLOAD + "$Doubler", WORKLOAD + "$Squarer");
        try {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> classes(read(servers, manifests)).containsAll(wanted));
        } finally {
            Files.writeString(stop, "stop");
            if (!host.waitFor(60, TimeUnit.SECONDS)) {
                host.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(host.exitValue()).as("exit code; stderr: %s", stderr).isZero();
        assertThat(Files.readString(out, StandardCharsets.UTF_8)).contains("workload done");

        List<ConsumerRecord<String, byte[]>> records = read(servers, manifests);
        List<CodeManifest> decoded = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            assertThat(r.key()).isEqualTo(ExecutionId.deploymentKey("manifest-it", "v7"));
            decoded.add(CodeManifest.fromByteBuffer(ByteBuffer.wrap(r.value())));
        }
        assertThat(decoded).extracting(CodeManifest::getSequence)
                .isEqualTo(java.util.stream.LongStream.range(0, decoded.size()).boxed().toList());
        assertThat(decoded).allSatisfy(m -> {
            assertThat(m.getService()).isEqualTo("manifest-it");
            assertThat(m.getVersion()).isEqualTo("v7");
            assertThat(m.getInstanceId()).isEqualTo("m-1");
        });

        // no class twice: each manifest's classes are new, and no method appears twice
        List<String> classOccurrences = new ArrayList<>();
        Set<String> signatures = new HashSet<>();
        Map<String, Long> fingerprints = new HashMap<>();
        long methods = 0;
        for (CodeManifest m : decoded) {
            Set<String> inThis = new HashSet<>();
            for (MethodFingerprint f : m.getMethods()) {
                inThis.add(f.getClassName());
                assertThat(signatures.add(signature(f))).as("method %s published once", signature(f)).isTrue();
                fingerprints.put(signature(f), f.getFingerprint());
                methods++;
            }
            classOccurrences.addAll(inThis);
        }
        assertThat(classOccurrences).as("classes").doesNotHaveDuplicates();
        assertThat(classOccurrences).noneMatch(c -> c.startsWith("java.") || c.startsWith("javax.")
                || c.startsWith("jdk.") || c.startsWith("sun.") || c.startsWith("com.sun.")
                || c.startsWith("io.cctflow.agent."));
        assertThat(classOccurrences).containsAll(wanted);

        // the agent's fingerprints, computed in the child JVM, equal this JVM's of the same class files
        for (String c : wanted) {
            byte[] classFile = Files.readAllBytes(TEST_CLASSES.resolve(c.replace('.', '/') + ".class"));
            // plain types: on failsafe's class path ClassFingerprints returns the relocated Avro classes
            Map<String, Long> expected = ClassFingerprints.of(classFile).bySignature();
            assertThat(expected).isNotEmpty();
            expected.forEach((signature, fingerprint) -> assertThat(fingerprints.get(signature))
                    .as("fingerprint of %s", signature).isEqualTo(fingerprint));
        }

        ManifestStats last = decoded.get(decoded.size() - 1).getStats();
        long bytesOnWire = records.stream().mapToLong(r -> r.value().length).sum();
        System.err.printf("manifest IT: %d manifests, %d classes, %d methods, %d bytes encoded (%.1f per method); "
                + "agent counters: seen %d, published %d, dropped %d, unreadable %d, class bytes %d, "
                + "fingerprinting %.1f ms%n", decoded.size(), classOccurrences.size(), methods, bytesOnWire,
                (double) bytesOnWire / methods, last.getClassesSeen(), last.getClassesPublished(),
                last.getClassesDropped(), last.getClassesUnreadable(), last.getClassBytes(),
                last.getFingerprintNanos() / 1e6);
        assertThat(last.getClassesPublished()).isEqualTo(classOccurrences.size());
        assertThat(last.getClassesDropped()).isZero();
        assertThat(last.getClassBytes()).isPositive();
        // (a WARN about a slow first metadata fetch on a loaded machine is harmless: the sender retries)
        assertThat(stderr).doesNotContain("NoClassDefFoundError", "dropped", "cannot fingerprint",
                "fingerprinting stopped");
    }

    private static String signature(MethodFingerprint f) {
        return f.getClassName() + "." + f.getMethodName() + f.getDescriptor();
    }

    private static Set<String> classes(List<ConsumerRecord<String, byte[]>> records) throws IOException {
        Set<String> classes = new HashSet<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            for (MethodFingerprint f : CodeManifest.fromByteBuffer(ByteBuffer.wrap(r.value())).getMethods()) {
                classes.add(f.getClassName());
            }
        }
        return classes;
    }

    /** Every record of the topic, in log order. */
    private static List<ConsumerRecord<String, byte[]>> read(TestServers servers, String topic) {
        return TopicRecords.read(servers.kafkaBootstrapServers(), topic, new StringDeserializer(),
                new ByteArrayDeserializer(), Duration.ofSeconds(30));
    }
}
