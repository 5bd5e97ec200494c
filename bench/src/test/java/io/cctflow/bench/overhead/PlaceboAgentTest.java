package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.bench.AgentAttach;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlaceboAgentTest {

    @Test
    void itsJarNamesItAsAgentClass(@TempDir Path dir) throws Exception {
        Path jar = PlaceboAgent.writeJar(dir);

        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(file.getManifest().getMainAttributes().getValue("Agent-Class"))
                    .isEqualTo(PlaceboAgent.class.getName());
        }
    }

    @Test
    void attachesToARunningJvmWhichGoesOnWorking(@TempDir Path dir) throws Exception {
        Path counters = dir.resolve("ops");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ProcessFreezerTest.CountingChild.class.getName(),
                counters.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("out").toFile()).start();
        try {
            OpsCounters ops = ProcessFreezerTest.awaitCounting(counters);

            AgentAttach.load(child.pid(), PlaceboAgent.writeJar(dir), "", "the counting child");

            long after = ops.sum();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (ops.sum() == after && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(ops.sum()).as("counting after the attach").isGreaterThan(after);
            assertThat(child.isAlive()).isTrue();

            // an agent class the JVM cannot find fails the attach, naming the JVM and its pid
            Manifest missing = new Manifest();
            missing.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            missing.getMainAttributes().put(new Attributes.Name("Agent-Class"), "no.such.Agent");
            Path bad = dir.resolve("bad.jar");
            try (OutputStream out = Files.newOutputStream(bad);
                    JarOutputStream ignored = new JarOutputStream(out, missing)) {
                // manifest only
            }
            assertThatThrownBy(() -> AgentAttach.load(child.pid(), bad, "", "the counting child"))
                    .hasMessageContaining("the counting child").hasMessageContaining(Long.toString(child.pid()));
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
