package io.cctflow.agent.importer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What {@code import --watch} knows of the files it has seen, and which of them are due for
 * import. A file is due once its {@link State} (size and modification time) is the same at two
 * looks in a row, so a file still being written or copied is left alone until it is complete.
 * A file imported is never due again. A file that failed (a recording caught mid-write, say) is
 * due again once its state has changed and then stayed the same for a look; unless some of its
 * batches were published: importing it again would publish those samples twice. A file that
 * changes after its import (written on after a pause longer than a look) is reported once by
 * {@link #changedSinceImport}: its new content is not imported.
 *
 * <p>Not thread-safe: owned by the watching thread.
 */
final class WatchedFiles {
    /** Size and modification time of a file at one look. */
    record State(long size, FileTime modified) {
        /** The state of {@code file} now, or null when it is gone or cannot be read. */
        static State of(Path file) {
            try {
                BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
                return new State(a.size(), a.lastModifiedTime());
            } catch (IOException e) {
                return null;
            }
        }
    }

    private final Map<Path, State> lastSeen = new HashMap<>();
    private final Map<Path, State> failedAt = new HashMap<>();
    private final Set<Path> settled = new HashSet<>();
    /** Imported files and their state when imported, until a change of it was reported. */
    private final Map<Path, State> importedAt = new HashMap<>();

    /**
     * Whether {@code file}, seen now in {@code state} (null: gone), is due for import. Call once
     * per file and look; then report the outcome of a due file with {@link #imported} or
     * {@link #failed}.
     */
    boolean due(Path file, State state) {
        if (settled.contains(file)) {
            return false;
        }
        if (state == null) {
            lastSeen.remove(file);
            return false;
        }
        if (state.equals(failedAt.get(file))) {
            return false; // unchanged since it failed: it would fail again
        }
        if (!state.equals(lastSeen.put(file, state))) {
            return false; // new or still changing
        }
        lastSeen.remove(file);
        return true;
    }

    /** The file, due in {@code state}, was imported; returns whether an earlier try of it had failed. */
    boolean imported(Path file, State state) {
        settled.add(file);
        importedAt.put(file, state);
        return failedAt.remove(file) != null;
    }

    /**
     * Whether {@code file}, seen now in {@code state}, was imported in another state: true once
     * per imported file, so the caller can say that what was written since is not imported.
     */
    boolean changedSinceImport(Path file, State state) {
        State before = importedAt.get(file);
        if (before == null || state == null || before.equals(state)) {
            return false;
        }
        importedAt.remove(file);
        return true;
    }

    /**
     * The file, due in {@code state}, failed. With {@code retriable} it is due again once it
     * changes; without (some of it was published), never. Returns whether an earlier try of it
     * had failed too.
     */
    boolean failed(Path file, State state, boolean retriable) {
        State before = retriable ? failedAt.put(file, state) : failedAt.remove(file);
        if (!retriable) {
            settled.add(file);
        }
        return before != null;
    }
}
