package io.cctflow.bench.query;

import io.cctflow.bench.overhead.Quantiles;
import io.cctflow.bench.pipeline.ProcFs;
import io.cctflow.graph.Keys;
import io.cctflow.graph.maintenance.RollupProgress;
import io.cctflow.graph.maintenance.RollupState;
import io.cctflow.graph.maintenance.Rollups;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.RangePlanner;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.core.TreeCounts;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

/**
 * Makes a built dataset look live: as the store stood while its last hour was the current one, so
 * that a timed range ending in that hour reads it the way a "last 3 h" reads a live deployment.
 * {@link #unroll} deletes the roll-ups of the last hour (every execution's, deployment's and instance
 * group's hour, ten-minute and minute windows starting in it) and of the day it ends (not complete
 * while its last hour is live), and records ({@link RollupProgress#write}) the roll-up state of a
 * pass that rolled up every hour before it; {@link #passAt} then runs the roll-up pass the query
 * service would run at a time in that hour (not settled yet), and {@link #passesToTheEnd} the
 * passes after it up to the dataset's end, a minute apart and then five. Not thread-safe; the
 * caller owns the driver.
 */
final class LiveTail {
    /** Minutes before the dataset's end of the first pass {@code --phase live} runs ({@link #passesToTheEnd}). */
    static final int FIRST_PASS_MINUTES = 10;

    private LiveTail() {
    }

    /** Deletes the last hour's and its day's roll-ups; returns the windows deleted. */
    static long unroll(Driver driver, Dataset dataset) {
        long lastHour = dataset.toMillis() - Resolution.HOUR.millis();
        long day = Resolution.DAY.floor(lastHour);
        try (Session session = driver.session()) {
            long deleted = session.executeWrite(tx -> tx.run("""
                    MATCH (w:Window)
                    WHERE (w.resolution IN $slots AND w.start >= $from AND w.start < $to)
                       OR (w.resolution = $dayResolution AND w.start = $day)
                    DETACH DELETE w
                    RETURN count(*) AS n
                    """, Map.of("slots", List.of(Resolution.HOUR.property(), Resolution.TEN_MINUTES.property(),
                            Resolution.MINUTE.property()), "from", lastHour, "to", dataset.toMillis(),
                            "dayResolution", Resolution.DAY.property(), "day", day)).single().get("n").asLong());
            // every hour before the last one rolled up, not its day; nothing written since the last pass
            new RollupProgress(driver, "").write(new RollupState(lastHour, day, lastHour, lastHour,
                    new WindowReader(driver, "").databaseTimeMillis()));
            return deleted;
        }
    }

    /**
     * What the planner reads for the whole fleet over 3 h ending at the dataset's end ("now") and
     * {@code minutes} before it: roll-ups and fine windows, one line each (counts, no timing).
     */
    static String plans(Driver driver, Dataset dataset, int... minutes) {
        List<String> fleet = new CatalogueReader(driver, "").instances(FleetDataset.SERVICE).stream()
                .map(i -> i.executionId().key()).toList();
        WindowReader reader = new WindowReader(driver, "", 0L);
        StringBuilder out = new StringBuilder();
        for (int m : minutes) {
            long to = dataset.toMillis() - m * Resolution.MINUTE.millis();
            RangePlanner.Plan plan = reader.plan(fleet, to - 3 * Resolution.HOUR.millis(), to);
            Map<Resolution, Long> byResolution = new TreeMap<>();
            plan.rollups().forEach(s -> byResolution.merge(s.resolution(), 1L, Long::sum));
            out.append(String.format("  3 h of %,d instances ending %d min before the end: %,d roll-ups %s, %,d fine"
                    + " windows%n", fleet.size(), m, plan.rollups().size(), byResolution,
                    plan.windowCount() - plan.rollups().size()));
        }
        return out.toString();
    }

    /**
     * Checks the read of the whole fleet over 3 h ending at the dataset's end ("now") against an
     * expectation made without it: the read of 3 h ending {@code rollup.minute-settle} before the
     * end (settled roll-ups) plus the fleet's fine windows of those last minutes, read one by one
     * and summed here. Equal whatever the store holds for those minutes (fine windows only, or
     * provisional sums the read checks); returns one line, throws if they differ.
     */
    static String checkReadEndingNow(Driver driver, Dataset dataset) {
        List<String> fleet = new CatalogueReader(driver, "").instances(FleetDataset.SERVICE).stream()
                .map(i -> i.executionId().key()).toList();
        WindowReader reader = new WindowReader(driver, "", 0L);
        long end = dataset.toMillis();
        long tail = end - Rollups.DEFAULT_MINUTE_SETTLE.toMillis();
        RangePlanner.Plan plan = reader.plan(fleet, end - 3 * Resolution.HOUR.millis(), end);
        TreeCounts read = plan.sum();
        List<WindowCounts> fine = reader.windows(fleet, tail, end);
        TreeCounts expected = TreeCounts.sum(List.of(reader.plan(fleet, end - 3 * Resolution.HOUR.millis(), tail).sum(),
                WindowReader.sum(fine)));
        long settle = Rollups.DEFAULT_MINUTE_SETTLE.toMinutes();
        if (!read.equals(expected)) {
            throw new IllegalStateException(String.format("3 h of the fleet ending at the dataset's end differs from the"
                    + " read ending %d min before plus the last %d min's fine windows", settle, settle));
        }
        return String.format("  3 h of %,d instances ending at the end (%,d roll-ups, %,d fine windows read): equal to"
                + " 3 h ending %d min before plus those %d min's %,d fine windows read one by one (%,d samples)%n",
                fleet.size(), plan.rollups().size(), plan.windowCount() - plan.rollups().size(), settle, settle,
                fine.size(), read.samples());
    }

    /**
     * The pass the query service runs {@code minutesBeforeEnd} before the dataset's end with its
     * default settle times (the minutes ended but not settled summed provisionally, as its
     * scheduler does).
     */
    static Rollups.Result passAt(Driver driver, Dataset dataset, int minutesBeforeEnd) {
        return pass(driver, true).rollUp(dataset.toMillis() - minutesBeforeEnd * Resolution.MINUTE.millis());
    }

    /**
     * What a live query service's passes cost per minute of data, a minute apart and five minutes
     * apart: after {@link #passAt} {@value #FIRST_PASS_MINUTES} minutes before the dataset's end,
     * the passes it would run every minute up to 5 minutes before the end, then one pass at the end
     * (its next at a 5-minute interval); with {@code lastPass} > 0 only passes a minute apart, up to
     * {@code lastPass} minutes before the end. Each sums the minutes that ended or settled since the
     * one before (and, with provisional minute sums, those ended and not settled); the fine windows
     * of the minutes after a pass's time are already stored, as the current minute's are in a live
     * store. Prints one line a pass and returns the CPU per minute of data of each interval. CPU is
     * this JVM's, the benchmark's Neo4j (embedded) included.
     */
    static String passesToTheEnd(Driver driver, Dataset dataset, int lastPass) {
        long self = ProcessHandle.current().pid();
        int[] steps = lastPass > 0 ? new int[] {1} : new int[] {1, 5};
        int[] minutes = lastPass > 0 ? new int[] {FIRST_PASS_MINUTES - lastPass} : new int[] {5, 5};
        double[] cpuPerMinute = new double[steps.length];
        int before = FIRST_PASS_MINUTES;
        for (int i = 0; i < steps.length; i++) {
            double cpu = 0;
            for (int n = 0; n < minutes[i] / steps[i]; n++) {
                before -= steps[i];
                long cpu0 = ProcFs.cpuNanos(self);
                long t0 = System.nanoTime();
                Rollups.Result result = passAt(driver, dataset, before);
                double wall = (System.nanoTime() - t0) / 1e9;
                double used = (ProcFs.cpuNanos(self) - cpu0) / 1e9;
                cpu += used;
                System.out.printf("  pass %d min before the end (%d min after the one before): %d minutes, %,d"
                        + " windows written in %.2f s, %.2f s CPU%n", before, steps[i], result.minutes(),
                        result.windowsWritten(), wall, used);
            }
            cpuPerMinute[i] = cpu / minutes[i];
        }
        return lastPass > 0 ? String.format("  passes a minute apart: %.2f CPU-s per minute of data; the last %d"
                + " min before the end%n", cpuPerMinute[0], lastPass)
                : String.format("  passes a minute apart: %.2f CPU-s per minute of data; five minutes apart: %.2f%n",
                        cpuPerMinute[0], cpuPerMinute[1]);
    }

    /**
     * What provisional minute sums add to every pass: after the pass at the end, {@code rounds} more
     * passes at the same time, with and without them, alternating. Without, such a pass finds
     * nothing new; with, it sums the ended, unsettled minutes again, as each pass of a live query
     * service does. Prints one line a pass and returns the medians. CPU is this JVM's, the benchmark's
     * Neo4j (embedded) included.
     */
    static String repeatedPasses(Driver driver, Dataset dataset, int rounds) {
        double[][] wall = new double[2][rounds];
        double[][] cpu = new double[2][rounds];
        long self = ProcessHandle.current().pid();
        for (int r = 0; r < rounds; r++) {
            for (int on = 1; on >= 0; on--) {
                long cpu0 = ProcFs.cpuNanos(self);
                long t0 = System.nanoTime();
                Rollups.Result result = pass(driver, on == 1).rollUp(dataset.toMillis());
                wall[on][r] = (System.nanoTime() - t0) / 1e9;
                cpu[on][r] = (ProcFs.cpuNanos(self) - cpu0) / 1e9;
                System.out.printf("  pass again at the end, provisional minutes %s: %d minutes, %,d windows written in"
                        + " %.2f s, %.2f s CPU%n", on == 1 ? "on" : "off", result.minutes(),
                        result.windowsWritten(), wall[on][r], cpu[on][r]);
            }
        }
        return String.format("  passes again at the end, median of %d: provisional minutes on %.2f s (%.2f s CPU),"
                + " off %.2f s (%.2f s CPU)%n", rounds, median(wall[1]), median(cpu[1]), median(wall[0]), median(cpu[0]));
    }

    private static Rollups pass(Driver driver, boolean provisionalMinutes) {
        return new Rollups(driver, "", FleetDataset.SETTLE, Rollups.DEFAULT_MINUTE_SETTLE,
                Keys.DEFAULT_INSTANCE_GROUPS, provisionalMinutes);
    }

    private static double median(double[] values) {
        return Quantiles.of(Arrays.stream(values).boxed().toList()).median();
    }
}
