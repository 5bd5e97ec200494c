package io.cctflow.bench.overhead;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time of this process's threads by kind, from Linux's {@code /proc/self/task/<tid>/schedstat}
 * (nanoseconds on a CPU, and the number of times the thread was put on a CPU: its wake-ups, plus
 * its returns after being preempted) and {@code comm} (the native thread name, at most 15
 * characters), so JFR's native threads and the JIT count too, of another process (the overhead
 * benchmark's parent reads its frozen children). On a shared machine this is the figure that does
 * not depend on how long threads waited for a CPU. Elsewhere every snapshot is empty. A thread that
 * ended between two snapshots is missing from the later one: its CPU since the first is not
 * counted.
 */
final class ThreadCpu {
    /** The kinds, in the order of {@link #format}. */
    enum Kind { WORKERS, AGENT, JFR, JIT, GC, OTHER }

    private record Thread(String name, long cpuNanos, long runs) {
    }

    /** What the threads of one name did between two snapshots. */
    record Use(String name, int threads, long cpuNanos, long runs) {
    }

    private final Map<String, Thread> threads;

    private ThreadCpu(Map<String, Thread> threads) {
        this.threads = threads;
    }

    /** The CPU time each thread of process {@code pid} has used so far (empty if it has ended). */
    static ThreadCpu of(long pid) {
        return snapshot(Path.of("/proc", Long.toString(pid), "task"));
    }

    private static ThreadCpu snapshot(Path taskDir) {
        Map<String, Thread> threads = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip();
                    String schedstat = Files.readString(task.resolve("schedstat"), StandardCharsets.US_ASCII);
                    String[] fields = schedstat.strip().split(" ");
                    threads.put(task.getFileName().toString(),
                            new Thread(name, Long.parseLong(fields[0]), Long.parseLong(fields[2])));
                } catch (IOException | RuntimeException e) {
                    // the thread ended while we looked
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: no breakdown
        }
        return new ThreadCpu(threads);
    }

    /** CPU nanoseconds per kind used between {@code before} and this snapshot, indexed by ordinal. */
    long[] since(ThreadCpu before) {
        long[] byKind = new long[Kind.values().length];
        for (Use u : byName(before)) {
            byKind[kindOf(u.name()).ordinal()] += u.cpuNanos();
        }
        return byKind;
    }

    /**
     * CPU nanoseconds and times put on a CPU between {@code before} and this snapshot, summed over
     * the threads of each name, most CPU first.
     */
    List<Use> byName(ThreadCpu before) {
        Map<String, Use> byName = new HashMap<>();
        for (Map.Entry<String, Thread> e : threads.entrySet()) {
            Thread now = e.getValue();
            Thread earlier = before.threads.get(e.getKey());
            long cpu = now.cpuNanos() - (earlier == null ? 0 : earlier.cpuNanos());
            long runs = now.runs() - (earlier == null ? 0 : earlier.runs());
            byName.merge(now.name(), new Use(now.name(), 1, cpu, runs), (a, b) ->
                    new Use(a.name(), a.threads() + b.threads(), a.cpuNanos() + b.cpuNanos(), a.runs() + b.runs()));
        }
        List<Use> uses = new ArrayList<>(byName.values());
        uses.sort(Comparator.comparingLong(Use::cpuNanos).reversed().thenComparing(Use::name));
        return uses;
    }

    static Kind kindOf(String name) {
        if (name.startsWith("worker-")) {
            return Kind.WORKERS;
        }
        if (name.startsWith("cctflow-") || name.startsWith("kafka-")) {
            return Kind.AGENT;
        }
        if (name.startsWith("JFR ")) {
            return Kind.JFR;
        }
        if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
            return Kind.JIT;
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
            return Kind.GC;
        }
        return Kind.OTHER;
    }

    /** The sum over kinds of {@code byKind}. */
    static long total(long[] byKind) {
        long sum = 0;
        for (long n : byKind) {
            sum += n;
        }
        return sum;
    }

    /** {@code workers=<ns> agent=<ns> jfr=<ns> jit=<ns> gc=<ns> other=<ns>}. */
    static String format(long[] byKind) {
        StringBuilder s = new StringBuilder();
        for (Kind k : Kind.values()) {
            s.append(s.length() == 0 ? "" : " ").append(k.name().toLowerCase(java.util.Locale.ROOT)).append('=')
                    .append(byKind[k.ordinal()]);
        }
        return s.toString();
    }
}
