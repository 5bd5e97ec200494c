package io.cctflow.agent.importer;

import java.nio.file.Path;

/**
 * Told by {@link ImportCommand} where it is, on the importing thread; lets tests act at exact
 * points of an import (change a file between two looks of {@code --watch}, fail a file).
 */
interface ImportListener {
    /** Does nothing. */
    ImportListener NONE = new ImportListener() {
    };

    /** {@code file} is about to be read; part of its import, so what this throws fails it. */
    default void reading(Path file) {
    }

    /** {@code --watch} has looked at every directory once and waits for the next look. */
    default void looked() {
    }
}
