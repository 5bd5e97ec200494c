package io.cctflow.bench.pipeline;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of the pipeline's processes and of this JVM's threads by role, for CPU per committed
 * sample: this JVM (the job on its MiniCluster, embedded Neo4j, the generator), its child
 * processes (the Kafka broker), and within this JVM the Java threads grouped by name, and the
 * JVM's collector, compiler and VM threads read from /proc; what the threads do not account for
 * (other JVM threads, threads that ended) is "other".
 *
 * <p>Immutable snapshot; take one before and one after a steady phase.
 */
record CpuShares(long processNanos, long childNanos, Map<String, Long> threadNanosByRole) {
    /**
     * The role of the simulated fleet: the agents' side, which runs on the pipeline's machine only
     * in the benchmark, so "the pipeline" is all less it.
     */
    static final String GENERATOR = "generator and its producer (the agents' side, not the pipeline's)";

    /** Thread name prefixes (Flink names task threads after their operators) and their roles, first match wins. */
    private static final List<Map.Entry<String, String>> ROLES = List.of(
            // the generator's thread and its producer's network thread ("... | fleet-generator")
            Map.entry(FleetLoad.THREAD_NAME, GENERATOR),
            Map.entry("merge-into-cct", "job: merge operator (decode, merge, topology)"),
            Map.entry("window", "job: window operator and sink"),
            Map.entry("topology", "job: topology and label sinks"),
            Map.entry("task-", "job: topology and label sinks"),
            Map.entry("Source: samples", "job: Kafka source"),
            Map.entry("Source", "job: other sources"),
            Map.entry("AsyncOperations", "job: checkpoint (async snapshots)"),
            Map.entry("Neo4jDriverIO", "Neo4j driver IO"),
            Map.entry("neo4j", "Neo4j (Bolt workers, storage)"),
            Map.entry("bolt", "Neo4j (Bolt workers, storage)"),
            Map.entry("Neo4j", "Neo4j (Bolt workers, storage)"),
            Map.entry("kafka-producer", "Kafka producers (the job's)"));

    /** The JVM's own threads (not Java threads: the MXBean does not see them) by name prefix, from /proc. */
    private static final Map<String, String> NATIVE_ROLES = Map.of(
            "GC Thread", "GC (collector threads)", "G1 ", "GC (collector threads)",
            "C1 CompilerThre", "JIT compiler threads", "C2 CompilerThre", "JIT compiler threads",
            "VM Thread", "VM thread (safepoints)",
            "rocksdb:", "job: RocksDB's own threads (flush, compaction)");

    static CpuShares now() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> byRole = new TreeMap<>();
        for (long id : threads.getAllThreadIds()) {
            long cpu = threads.getThreadCpuTime(id);
            java.lang.management.ThreadInfo info = threads.getThreadInfo(id);
            if (cpu > 0 && info != null) {
                byRole.merge(role(info.getThreadName()), cpu, Long::sum);
            }
        }
        byRole.putAll(ProcFs.nativeThreadNanos(NATIVE_ROLES));
        long children = ProcessHandle.current().descendants()
                .mapToLong(p -> Math.max(0, ProcFs.cpuNanos(p.pid()))).sum();
        return new CpuShares(ProcFs.cpuNanos(ProcessHandle.current().pid()), children, byRole);
    }

    static String role(String threadName) {
        for (Map.Entry<String, String> r : ROLES) {
            if (threadName.startsWith(r.getKey()) || threadName.contains(r.getKey())) {
                return r.getValue();
            }
        }
        return "other Java threads (Flink runtime, probes, ...)";
    }

    /** CPU nanoseconds of this JVM and its children (the broker) together since {@code start}. */
    long allNanosSince(CpuShares start) {
        return processNanos - start.processNanos + childNanos - start.childNanos;
    }

    /**
     * CPU-µs per committed sample since {@code start}, the benchmark JVM and its children (the
     * broker) apart, and the pipeline's (all less the {@link #GENERATOR}), then this JVM's roles:
     * e.g. "all 14.2 (this JVM 12.9, broker 1.3); the pipeline 12.5; merge operator 3.1, ...".
     */
    String perSampleSince(CpuShares start, double committedSamples) {
        double jvm = (processNanos - start.processNanos) / 1e3 / committedSamples;
        double children = (childNanos - start.childNanos) / 1e3 / committedSamples;
        Map<String, Double> roles = new LinkedHashMap<>();
        double accounted = 0;
        for (Map.Entry<String, Long> e : threadNanosByRole.entrySet()) {
            double us = (e.getValue() - start.threadNanosByRole.getOrDefault(e.getKey(), 0L)) / 1e3 / committedSamples;
            roles.put(e.getKey(), us);
            accounted += us;
        }
        roles.put("other JVM threads, threads that ended", jvm - accounted);
        StringBuilder s = new StringBuilder(String.format(
                "CPU-µs per committed sample: all %.1f (benchmark JVM %.1f, broker JVM %.1f); the pipeline %.1f"
                        + " (all less the generator)", jvm + children, jvm, children,
                jvm + children - roles.getOrDefault(GENERATOR, 0.0)));
        roles.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(e -> s.append(String.format("%n      %5.1f  %s", e.getValue(), e.getKey())));
        return s.toString();
    }
}
