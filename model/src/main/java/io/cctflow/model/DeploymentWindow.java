package io.cctflow.model;

import java.util.List;
import java.util.Objects;

/**
 * A roll-up of a whole deployment: {@code window} holds the summed counts of {@code members}, the
 * executions (their keys) whose finer windows it sums; its execution key is the deployment's
 * roll-up key. A range read uses it only for selections that include every member.
 */
public record DeploymentWindow(WindowCounts window, List<String> members) {
    public DeploymentWindow {
        Objects.requireNonNull(window, "window");
        members = List.copyOf(members);
    }
}
