package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.bench.AgentAttach;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentClassLoadsTest {

    @Test
    void listsTheClassesLoadedFromTheAttachOnOnceEachWithoutHiddenOnes() {
        List<String> log = List.of(
                "[0.010s][info][class,load] java.lang.Object source: shared objects file",
                "[0.400s][info][class,load] io.cctflow.bench.overhead.WorkloadOps source: file:/x/classes/",
                "[0.401s][info][gc] Using G1",
                "[5.000s][info][class,load] sun.instrument.InstrumentationImpl source: jrt:/java.instrument",
                "[5.010s][info][class,load] io.cctflow.agent.CctflowAgent source: file:/x/cctflow-agent.jar",
                "[5.020s][info][class,load] java.lang.invoke.LambdaForm$MH/0x0000000800c04000 source:"
                        + " __JVM_LookupDefineClass__",
                "[5.030s][info][class,load] java.util.regex.PatternSyntaxException source: jrt:/java.base",
                "[5.040s][info][class,load] io.cctflow.agent.shaded.org.apache.avro.util.WeakIdentityHashMap"
                        + " source: file:/x/cctflow-agent.jar",
                "[5.050s][info][class,load] java.util.regex.PatternSyntaxException source: jrt:/java.base",
                "[5.060s][info][class,load] jdk.proxy1.$Proxy26 source: __dynamic_proxy__",
                "[5.070s][info][class,load] jdk.internal.reflect.GeneratedConstructorAccessor13 source:"
                        + " __ClassDefiner__",
                "truncated line [class,load]");

        assertThat(AgentClassLoads.loadedByAttach(log)).containsExactly("sun.instrument.InstrumentationImpl",
                "io.cctflow.agent.CctflowAgent", "java.util.regex.PatternSyntaxException",
                "io.cctflow.agent.shaded.org.apache.avro.util.WeakIdentityHashMap");
        // an agent that never arrived: nothing
        assertThat(AgentClassLoads.loadedByAttach(log.subList(0, 3))).isEmpty();
    }

    /** The log format the parser expects is the one this JVM writes: an attach into a real child. */
    @Test
    void readsARealJvmsClassLoadLogAcrossAnAttach(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("class-load.log");
        Path counters = dir.resolve("ops");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + log.toAbsolutePath(), "-cp", System.getProperty("java.class.path"),
                ProcessFreezerTest.CountingChild.class.getName(), counters.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("out").toFile()).start();
        try {
            ProcessFreezerTest.awaitCounting(counters);
            AgentAttach.load(child.pid(), PlaceboAgent.writeJar(dir), "", "the counting child");
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }

        List<String> loaded = AgentClassLoads.loadedByAttach(Files.readAllLines(log, StandardCharsets.UTF_8));
        assertThat(loaded).contains("sun.instrument.InstrumentationImpl", PlaceboAgent.class.getName())
                .doesNotContain(ProcessFreezerTest.CountingChild.class.getName(), "java.lang.Object")
                .allMatch(name -> !name.contains("/") && !name.contains(" "));
    }

    @Test
    void preloadLoadsWithoutInitialisingAndNamesWhatItCannotFind() {
        List<String> missing = OverheadWorkload.preload(List.of(Probe.class.getName(), "no.such.Klass"),
                getClass().getClassLoader());

        assertThat(missing).containsExactly("no.such.Klass");
        assertThat(probeInitialised).as("the probe's static initialiser ran").isFalse();
    }

    /** Set by {@link Probe}'s static initialiser; a field of the test, so reading it does not initialise Probe. */
    private static volatile boolean probeInitialised;

    static final class Probe {
        static {
            probeInitialised = true;
        }

        private Probe() {
        }
    }
}
