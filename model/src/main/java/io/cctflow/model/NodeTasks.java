package io.cctflow.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The tasks one CCT node is a root of for one service (seed 002 Eq. 3.24: it carries them, its
 * parent does not), sorted, replacing what was stored; the node's full labels are those of the
 * roots on its path. Labels are per (service, node) because a definition may be limited to one
 * service, and a function of the node's path and the service's definitions, so every instance of
 * the service writes the same list and the write is idempotent. An empty list removes the entry.
 *
 * <p>{@code tasks} is a copy in a plain {@link ArrayList}, not an immutable list, because the record
 * travels between Flink operators and Flink's generic serializer must be able to rebuild it. Do not
 * modify it.
 */
public record NodeTasks(String service, long nodeId, List<String> tasks) {

    public NodeTasks {
        Objects.requireNonNull(service, "service");
        tasks = new ArrayList<>(tasks);
    }
}
