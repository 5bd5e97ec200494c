package io.cctflow.model;

import java.util.List;
import java.util.Objects;

/**
 * A roll-up of a whole deployment: {@code window} holds the summed counts of {@code members}, the
 * executions (their keys) whose finer windows it sums; its execution key is the deployment's
 * roll-up key. A range read uses it only for selections that include every member.
 *
 * @param sources for a sum of fine windows that may still change (a minute not settled yet): a
 *     digest of the fine windows it sums, each named by execution, start and checksum, which a
 *     read compares with the fine windows it lists before using the sum; null for a settled sum
 */
public record DeploymentWindow(WindowCounts window, List<String> members, String sources) {
    public DeploymentWindow {
        Objects.requireNonNull(window, "window");
        members = List.copyOf(members);
    }

    /** A settled roll-up (no {@code sources}). */
    public DeploymentWindow(WindowCounts window, List<String> members) {
        this(window, members, null);
    }
}
