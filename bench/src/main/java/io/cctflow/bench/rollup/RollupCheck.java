package io.cctflow.bench.rollup;

import io.cctflow.graph.Keys;
import io.cctflow.graph.read.CoveredWindow;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.Resolution;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * Checks the roll-ups a pass wrote against {@link ExpectedSum}s of the windows the benchmark wrote:
 * the hourly window of a few instances (the first, the last, the middle and two drawn at random),
 * the deployment's hourly window and its members, and its six ten-minute windows; for a day, the
 * daily window of the same instances and of the deployment. Reads with the store's own reader as
 * the pass does ({@link WindowReader#asStored}), outside the timed pass.
 *
 * <p>Not thread-safe.
 */
final class RollupCheck {
    private final BusyFleet fleet;
    private final WindowReader reader;
    private final List<String> failures = new ArrayList<>();
    private int checked;

    RollupCheck(BusyFleet fleet, WindowReader reader) {
        this.fleet = fleet;
        this.reader = reader;
    }

    /** The instances spot-checked out of {@code instances}. */
    static TreeSet<Integer> sample(int instances, long seed) {
        Random random = new Random(seed);
        TreeSet<Integer> out = new TreeSet<>(List.of(0, instances / 2, instances - 1));
        out.add(random.nextInt(instances));
        out.add(random.nextInt(instances));
        return out;
    }

    /** Checks hour number {@code hour} (starting at {@code hourStart}) written for instances [0, instances). */
    void checkHour(int hour, long hourStart, int instances, long seed) {
        for (int k : sample(instances, seed)) {
            ExpectedSum want = new ExpectedSum();
            for (int m = 0; m < BusyFleet.MINUTES_PER_HOUR; m++) {
                want.add(fleet.poolWindow(fleet.poolIndex(k, hour, m)), 1);
            }
            compare("hour " + hour + " of " + BusyFleet.instanceId(k), want, instanceWindow(k, Resolution.HOUR, hourStart));
        }
        compare("hour " + hour + " of the deployment", deploymentHour(hour, instances, BusyFleet.MINUTES_PER_HOUR, 0),
                deploymentWindow(Resolution.HOUR, hourStart, instances));
        for (int slot = 0; slot < 6; slot++) {
            compare("ten minutes " + slot + " of hour " + hour + " of the deployment",
                    deploymentHour(hour, instances, 10, slot * 10),
                    deploymentWindow(Resolution.TEN_MINUTES, hourStart + slot * Resolution.TEN_MINUTES.millis(), instances));
        }
        for (int m : new int[] {0, 29, BusyFleet.MINUTES_PER_HOUR - 1}) { // busy instances share nodes: summed
            compare("minute " + m + " of hour " + hour + " of the deployment", deploymentHour(hour, instances, 1, m),
                    deploymentWindow(Resolution.MINUTE, hourStart + m * Resolution.MINUTE.millis(), instances));
        }
    }

    /** Checks the day starting at {@code dayStart} holding hours 0.. of {@code instancesPerHour}. */
    void checkDay(long dayStart, int[] instancesPerHour, long seed) {
        int largest = 0;
        for (int n : instancesPerHour) {
            largest = Math.max(largest, n);
        }
        for (int k : sample(largest, seed)) {
            ExpectedSum want = new ExpectedSum();
            for (int h = 0; h < instancesPerHour.length; h++) {
                if (k < instancesPerHour[h]) {
                    for (int m = 0; m < BusyFleet.MINUTES_PER_HOUR; m++) {
                        want.add(fleet.poolWindow(fleet.poolIndex(k, h, m)), 1);
                    }
                }
            }
            compare("day of " + BusyFleet.instanceId(k), want, instanceWindow(k, Resolution.DAY, dayStart));
        }
        ExpectedSum all = new ExpectedSum();
        for (int h = 0; h < instancesPerHour.length; h++) {
            addDeploymentMinutes(all, h, instancesPerHour[h], BusyFleet.MINUTES_PER_HOUR, 0);
        }
        compare("day of the deployment", all, deploymentWindow(Resolution.DAY, dayStart, largest));
    }

    /** Roll-ups checked so far. */
    int checked() {
        return checked;
    }

    /** What differed; empty when every roll-up checked held its expected sum. */
    List<String> failures() {
        return failures;
    }

    private ExpectedSum deploymentHour(int hour, int instances, int minutes, int firstMinute) {
        ExpectedSum want = new ExpectedSum();
        addDeploymentMinutes(want, hour, instances, minutes, firstMinute);
        return want;
    }

    /** Adds minutes [firstMinute, firstMinute + minutes) of every instance, each pool window once with its multiplicity. */
    private void addDeploymentMinutes(ExpectedSum sum, int hour, int instances, int minutes, int firstMinute) {
        long[] times = new long[fleet.poolSize()];
        for (int k = 0; k < instances; k++) {
            for (int m = firstMinute; m < firstMinute + minutes; m++) {
                times[fleet.poolIndex(k, hour, m)]++;
            }
        }
        for (int p = 0; p < times.length; p++) {
            if (times[p] > 0) {
                sum.add(fleet.poolWindow(p), times[p]);
            }
        }
    }

    private io.cctflow.model.WindowCounts instanceWindow(int k, Resolution resolution, long start) {
        List<CoveredWindow> found = reader.coveredWindows(BusyFleet.executionKey(k), resolution, start, start + 1);
        return found.isEmpty() ? null : found.get(0).window();
    }

    private io.cctflow.model.WindowCounts deploymentWindow(Resolution resolution, long start, int members) {
        String key = Keys.deploymentRollup(BusyFleet.executionKey(0));
        for (DeploymentWindow d : reader.deploymentWindowsStartingIn(resolution, start, start + 1)) {
            if (d.window().executionKey().equals(key)) {
                if (d.members().size() != members) {
                    failures.add(resolution.property() + " deployment window at " + start + ": " + d.members().size()
                            + " members, expected " + members);
                }
                return d.window();
            }
        }
        return null;
    }

    private void compare(String what, ExpectedSum want, io.cctflow.model.WindowCounts stored) {
        checked++;
        if (stored == null) {
            failures.add(what + ": no roll-up stored");
            return;
        }
        String diff = want.mismatch(stored.counts());
        if (diff != null) {
            failures.add(what + ": " + diff);
        }
    }
}
