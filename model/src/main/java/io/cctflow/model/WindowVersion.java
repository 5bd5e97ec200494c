package io.cctflow.model;

import java.util.Objects;

/**
 * A stored window as a range read plans it: where it lies and when it was last written
 * ({@code written}, the database clock; {@link Long#MAX_VALUE} when the window has none). A window
 * rewritten later has a later {@code written}, so (span, written) names one version of its counts.
 */
public record WindowVersion(WindowSpan span, long writtenMillis) {
    public WindowVersion {
        Objects.requireNonNull(span, "span");
    }
}
