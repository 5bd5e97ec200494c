package io.cctflow.bench.pipeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time and command line of another process, read from Linux's {@code /proc}: the JDK's
 * {@code ProcessHandle.Info} leaves both out for processes whose command line is long (a class
 * path of a hundred jars), which every JVM of the cluster has.
 */
public final class ProcFs {
    /** Linux reports CPU time in USER_HZ ticks, 100 per second on every mainstream kernel build. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private ProcFs() {
    }

    /** User plus system CPU time of process {@code pid} in nanoseconds, or -1 when it is gone. */
    public static long cpuNanos(long pid) {
        return statCpuNanos(Path.of("/proc", Long.toString(pid), "stat"));
    }

    private static long statCpuNanos(Path statFile) {
        try {
            String stat = Files.readString(statFile, StandardCharsets.US_ASCII);
            // fields after the parenthesised command name (which may hold spaces): state is field 3,
            // utime field 14, stime field 15
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * CPU nanoseconds of this process's threads whose name (Linux's, at most 15 characters) starts
     * with a key of {@code rolesByPrefix}, summed by role; threads that ended are not counted.
     */
    static Map<String, Long> nativeThreadNanos(Map<String, String> rolesByPrefix) {
        Map<String, Long> byRole = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII).strip();
                } catch (IOException e) {
                    continue; // the thread ended while listed
                }
                for (Map.Entry<String, String> r : rolesByPrefix.entrySet()) {
                    if (name.startsWith(r.getKey())) {
                        byRole.merge(r.getValue(), Math.max(0, statCpuNanos(task.resolve("stat"))), Long::sum);
                        break;
                    }
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return byRole;
    }

    /** The process's command line, arguments separated by spaces; empty when it is gone. */
    static String commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }
}
