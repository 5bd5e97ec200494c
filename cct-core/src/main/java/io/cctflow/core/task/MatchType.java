package io.cctflow.core.task;

/** How a {@link TaskDefinition} pattern is matched against {@code className.methodName}. */
public enum MatchType {
    /** The name starts with the pattern (seed 002 Listing 3.4). */
    PREFIX,
    /** The regular expression is found in the name (seed 002 Listing 3.5); use {@code ^} to anchor. */
    REGEX
}
