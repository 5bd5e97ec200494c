package io.cctflow.graph.maintenance;

import io.cctflow.graph.Keys;
import io.cctflow.model.Resolution;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.write.GraphWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.neo4j.driver.Driver;

/**
 * The roll-up pass: sums fine windows into hourly windows and hourly into daily ones, per
 * execution, and writes them with {@code SET} (idempotent: running a pass twice writes the same
 * numbers). The {@link MaintenanceScheduler} runs it on a schedule ({@code rollup.interval}
 * in the query service); anything that owns a driver may run it.
 *
 * <p>An hour is rolled up once it is <em>settled</em>: its end lies {@code settle} before now, so
 * late batches (the samples job's allowed lateness plus its early firings) have been written. Fine
 * windows written after their hour was rolled up (an import of old recordings, a replay) are found
 * by their write time ({@code written}, the database clock) and their hour and day are rolled up
 * again. A day is rolled up from its hours once all of them are settled.
 *
 * <p>Each pass also writes the roll-ups of whole deployments ({@link DeploymentWindow}): per
 * deployment and hour (and day), the sum of all its executions' windows, and per ten minutes of a
 * rolled-up hour the sum of its executions' fine windows that start in them. They are written with
 * the executions' roll-ups of the same hour or day, so late windows roll them up again too.
 *
 * <p>Not thread-safe: run one pass at a time (the query service runs them on one thread).
 */
public final class Rollups {
    private final WindowReader reader;
    private final GraphWriter writer;
    private final RollupProgress progress;
    private final long settleMillis;

    /** What one pass did. */
    public record Result(int hours, int days, int windowsWritten) {
    }

    /** Roll-ups of the windows in {@code database} (the default one when empty), hours settled {@code settle} after their end. */
    public Rollups(Driver driver, String database, Duration settle) {
        if (settle.isNegative()) {
            throw new IllegalArgumentException("settle must not be negative, got " + settle);
        }
        this.reader = new WindowReader(driver, database, 0L); // no window cache: a pass reads every window once
        this.writer = new GraphWriter(driver, database);
        this.progress = new RollupProgress(driver, database);
        this.settleMillis = settle.toMillis();
    }

    /** Rolls up every hour settled at {@code nowMillis} and every complete day not rolled up yet. */
    public Result rollUp(long nowMillis) {
        RollupState state = progress.read();
        long passStart = reader.databaseTimeMillis();
        long hourEnd = Resolution.HOUR.floor(nowMillis - settleMillis);
        long dayEnd = Resolution.DAY.floor(hourEnd);

        TreeSet<Long> hours = new TreeSet<>();
        for (long start : reader.windowStarts(Resolution.FINE, state.hourDoneUntil(), hourEnd)) {
            hours.add(Resolution.HOUR.floor(start));
        }
        if (state.lastPassMillis() != Long.MIN_VALUE) {
            for (long start : reader.fineStartsWrittenSince(state.lastPassMillis(), hourEnd)) {
                hours.add(Resolution.HOUR.floor(start));
            }
        }
        int written = 0;
        for (long hour : hours) {
            written += roll(Resolution.FINE, Resolution.HOUR, hour);
        }

        TreeSet<Long> days = new TreeSet<>();
        for (long start : reader.windowStarts(Resolution.HOUR, state.dayDoneUntil(), dayEnd)) {
            days.add(Resolution.DAY.floor(start));
        }
        for (long hour : hours) {
            if (Resolution.DAY.floor(hour) < dayEnd) {
                days.add(Resolution.DAY.floor(hour));
            }
        }
        for (long day : days) {
            written += roll(Resolution.HOUR, Resolution.DAY, day);
        }
        progress.write(new RollupState(Math.max(hourEnd, state.hourDoneUntil()),
                Math.max(dayEnd, state.dayDoneUntil()), passStart - WindowReader.WRITE_MARGIN_MILLIS));
        return new Result(hours.size(), days.size(), written);
    }

    /**
     * Sums the {@code from} windows of every execution that start in one {@code to} window: one
     * {@code to} window per execution and one per deployment (the sum of its executions, with them
     * as members); an hour also gets its deployments' ten-minute windows, from the same fine windows.
     */
    private int roll(Resolution from, Resolution to, long start) {
        List<WindowCounts> parts = reader.windowsStartingIn(from, start, start + to.millis());
        List<WindowCounts> rolled = new ArrayList<>();
        for (List<WindowCounts> windows : group(parts, WindowCounts::executionKey).values()) {
            rolled.add(sum(windows.get(0).executionKey(), start, to, windows));
        }
        writer.writeWindowCounts(rolled, to);
        List<DeploymentWindow> deployments = sumDeployments(parts, to, start);
        writer.writeDeploymentWindows(deployments, to);
        int written = rolled.size() + deployments.size();
        if (to == Resolution.HOUR) {
            List<DeploymentWindow> tens = new ArrayList<>();
            Map<Long, List<WindowCounts>> bySlot = new TreeMap<>(group(parts,
                    w -> Resolution.TEN_MINUTES.floor(w.windowStartMillis())));
            bySlot.forEach((slot, windows) -> tens.addAll(sumDeployments(windows, Resolution.TEN_MINUTES, slot)));
            writer.writeDeploymentWindows(tens, Resolution.TEN_MINUTES);
            written += tens.size();
        }
        return written;
    }

    /** Per deployment, the sum of {@code windows} as one {@code to} window starting at {@code start}. */
    private static List<DeploymentWindow> sumDeployments(List<WindowCounts> windows, Resolution to, long start) {
        List<DeploymentWindow> out = new ArrayList<>();
        group(windows, w -> Keys.deploymentRollup(w.executionKey())).forEach((key, members) -> out.add(
                new DeploymentWindow(sum(key, start, to, members),
                        members.stream().map(WindowCounts::executionKey).distinct().sorted().toList())));
        return out;
    }

    private static WindowCounts sum(String key, long start, Resolution to, List<WindowCounts> windows) {
        TruncationCounts truncation = TruncationCounts.NONE;
        for (WindowCounts w : windows) {
            truncation = truncation.plus(w.truncation());
        }
        return new WindowCounts(key, start, start + to.millis(), WindowReader.sum(windows), truncation);
    }

    private static <K> Map<K, List<WindowCounts>> group(List<WindowCounts> windows, Function<WindowCounts, K> key) {
        Map<K, List<WindowCounts>> out = new LinkedHashMap<>();
        for (WindowCounts w : windows) {
            out.computeIfAbsent(key.apply(w), k -> new ArrayList<>()).add(w);
        }
        return out;
    }
}
