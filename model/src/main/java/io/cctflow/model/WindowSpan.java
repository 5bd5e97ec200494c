package io.cctflow.model;

import java.util.Objects;

/**
 * Where a stored window lies, without its counts: one execution, one resolution, [start, end).
 * Also used for intervals of one execution that still have to be read from fine windows.
 */
public record WindowSpan(String executionKey, Resolution resolution, long startMillis, long endMillis) {
    public WindowSpan {
        Objects.requireNonNull(executionKey, "executionKey");
        Objects.requireNonNull(resolution, "resolution");
    }
}
