package io.cctflow.query.alerting;

import java.util.List;

/**
 * What one refresh computed: the values every {@code /metrics} scrape serves until the next
 * refresh replaces them as a whole (so a series that is not recomputed disappears). Immutable.
 */
public record AlertingSnapshot(List<WatchedTime> watched, List<DeploymentSamples> deployments,
        List<Shift> shifts, List<TaskSamples> tasks, List<TaskTime> taskTimes) {

    public static final AlertingSnapshot EMPTY = new AlertingSnapshot(List.of(), List.of(), List.of());

    public AlertingSnapshot {
        watched = List.copyOf(watched);
        deployments = List.copyOf(deployments);
        shifts = List.copyOf(shifts);
        tasks = List.copyOf(tasks);
        taskTimes = List.copyOf(taskTimes);
    }

    /** Without task series. */
    public AlertingSnapshot(List<WatchedTime> watched, List<DeploymentSamples> deployments, List<Shift> shifts) {
        this(watched, deployments, shifts, List.of(), List.of());
    }

    /** The samples through the roots of a watched task in the newest deployment of its service (Eq. 3.25's denominator). */
    public record TaskSamples(String service, String version, String task, long samples) {
    }

    /** A watched method's time relative to a watched task's roots, in the newest deployment of their service. */
    public record TaskTime(String service, String version, String task, String method, long methodSamples,
            long taskSamples) {
        public double ratio() {
            return taskSamples == 0 ? 0.0 : (double) methodSamples / taskSamples;
        }
    }

    /** A watched method in the newest deployment of its service. */
    public record WatchedTime(String service, String version, String method, long methodSamples, long samples) {
        public double ratio() {
            return samples == 0 ? 0.0 : (double) methodSamples / samples;
        }
    }

    /** All samples of a deployment in the window its metrics were computed over. */
    public record DeploymentSamples(String service, String version, long samples) {
    }

    /** One of the top shifts of a service's newest deployment against its predecessor. */
    public record Shift(String service, String version, String baselineVersion, String method, MethodShift shift) {
    }
}
