package io.cctflow.agent.importer;

import java.nio.file.Path;

/**
 * Told by {@link ImportCommand} where it is, on the importing thread; lets tests act at exact
 * points of an import (fail a file, say).
 */
interface ImportListener {
    /** Does nothing. */
    ImportListener NONE = new ImportListener() {
    };

    /** {@code file} is about to be read; part of its import, so what this throws fails it. */
    default void reading(Path file) {
    }
}
