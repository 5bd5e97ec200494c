package io.cctflow.bench.overhead;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.stream.Stream;

/**
 * How much CPU the rest of the machine used: the machine's busy and stolen time from
 * {@code /proc/stat}, minus the CPU of this process and all its descendants (the broker, the
 * children, the signalling shell) from {@code /proc/<pid>/stat}. In clock ticks ({@code USER_HZ},
 * 100 per second on Linux: 10 ms resolution). On a shared machine this says which slices ran while
 * other parties competed for the cores: the scheduler does not share the cores between a thawed
 * child and the others the same way for every setup. Elsewhere every snapshot is zero.
 * Stateless.
 */
final class MachineCpu {
    /** Nanoseconds per clock tick ({@code USER_HZ} = 100). */
    static final long TICK_NANOS = 10_000_000L;

    /** Cumulative ticks at one moment. */
    record Snapshot(long machineTicks, long ourTicks) {
        /** CPU nanoseconds the rest of the machine used between {@code before} and this snapshot. */
        long othersNanosSince(Snapshot before) {
            return Math.max(0, (machineTicks - before.machineTicks) - (ourTicks - before.ourTicks)) * TICK_NANOS;
        }
    }

    private MachineCpu() {
    }

    /** The machine's busy and stolen ticks so far, and those of this process tree. */
    static Snapshot take() {
        long machine;
        try {
            machine = busyAndStolenTicks(Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.US_ASCII).get(0));
        } catch (IOException | RuntimeException e) {
            return new Snapshot(0, 0);
        }
        long ours = 0;
        try (Stream<ProcessHandle> tree = Stream.concat(Stream.of(ProcessHandle.current()),
                ProcessHandle.current().descendants())) {
            for (Iterator<ProcessHandle> it = tree.iterator(); it.hasNext();) {
                try {
                    ours += processTicks(Files.readString(Path.of("/proc", Long.toString(it.next().pid()), "stat"),
                            StandardCharsets.US_ASCII));
                } catch (IOException | RuntimeException e) {
                    // the process ended meanwhile
                }
            }
        }
        return new Snapshot(machine, ours);
    }

    /**
     * Busy plus stolen ticks of the {@code cpu} line of {@code /proc/stat}: user, nice, system, irq,
     * softirq and steal (not idle and iowait; guest time is already in user).
     *
     * @throws IllegalArgumentException naming the line if it is not an aggregate cpu line
     */
    static long busyAndStolenTicks(String cpuLine) {
        String[] f = cpuLine.strip().split("\\s+");
        if (f.length < 9 || !f[0].equals("cpu")) {
            throw new IllegalArgumentException("not the cpu line of /proc/stat: '" + cpuLine + "'");
        }
        long user = Long.parseLong(f[1]);
        long nice = Long.parseLong(f[2]);
        long system = Long.parseLong(f[3]);
        long irq = Long.parseLong(f[6]);
        long softirq = Long.parseLong(f[7]);
        long steal = Long.parseLong(f[8]);
        return user + nice + system + irq + softirq + steal;
    }

    /**
     * User plus system ticks of a process, from its {@code /proc/<pid>/stat} line (fields 14 and
     * 15, counted after the name in parentheses, which may hold spaces).
     *
     * @throws IllegalArgumentException naming the line if it is not such a line
     */
    static long processTicks(String statLine) {
        int close = statLine.lastIndexOf(')');
        String[] f = close < 0 ? new String[0] : statLine.substring(close + 2).strip().split(" ");
        if (f.length < 13) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: '" + statLine + "'");
        }
        // f[0] is field 3 (state): utime is field 14, stime field 15
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
