package io.cctflow.model;

import java.util.List;
import java.util.Objects;

/** A stored deployment roll-up as a range read plans it: its version and the executions it sums. */
public record DeploymentWindowVersion(WindowVersion version, List<String> members) {
    public DeploymentWindowVersion {
        Objects.requireNonNull(version, "version");
        members = List.copyOf(members);
    }
}
