package io.cctflow.agent.sampling;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which threads are sampled, by their raw Java thread name (as the application named it, before
 * normalisation to pools): a thread is kept when the whole name matches {@code include} (if set)
 * and does not match {@code exclude} (if set). Immutable and thread-safe.
 */
public final class ThreadFilter {
    /** Keeps every thread. */
    public static final ThreadFilter ALL = new ThreadFilter(Optional.empty(), Optional.empty());

    private final Optional<Pattern> include;
    private final Optional<Pattern> exclude;

    /**
     * @param include when present, only threads whose whole raw name matches it are kept
     * @param exclude when present, threads whose whole raw name matches it are left out
     */
    public ThreadFilter(Optional<Pattern> include, Optional<Pattern> exclude) {
        this.include = Objects.requireNonNull(include);
        this.exclude = Objects.requireNonNull(exclude);
    }

    /** Whether samples of the thread named {@code rawName} are kept. */
    public boolean accepts(String rawName) {
        return include.map(p -> p.matcher(rawName).matches()).orElse(true)
                && !exclude.map(p -> p.matcher(rawName).matches()).orElse(false);
    }

    @Override
    public String toString() {
        return "include " + include.map(Pattern::pattern).orElse("(all)") + ", exclude "
                + exclude.map(Pattern::pattern).orElse("(none)");
    }
}
