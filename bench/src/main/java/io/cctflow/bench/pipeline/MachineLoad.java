package io.cctflow.bench.pipeline;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the machine gave this process while a figure was measured: CPU seconds this JVM used
 * (Kafka's broker runs in a child JVM and is not included) against wall seconds, and the load
 * average. On a shared machine these say how far a figure is from what the code could do alone.
 *
 * <p>Immutable snapshot; take one before and one after.
 */
public record MachineLoad(long wallNanos, long cpuNanos) {
    public static MachineLoad now() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        long cpu = os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
        return new MachineLoad(System.nanoTime(), cpu);
    }

    /** E.g. "this JVM used 1.3 cores (52 s CPU in 40 s), load average 24.1". */
    public String since(MachineLoad start) {
        double wall = (wallNanos - start.wallNanos) / 1e9;
        double cpu = (cpuNanos - start.cpuNanos) / 1e9;
        return String.format("this JVM used %.2f cores (%.0f s CPU in %.0f s), 1-min load average %s on %d cores",
                cpu / wall, cpu, wall, loadAverage(), Runtime.getRuntime().availableProcessors());
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return String.format("%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }
}
