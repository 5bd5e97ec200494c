package io.cctflow.agent.importer;

import java.nio.file.Path;

/**
 * An input file that cannot be read (fully): names the file, the byte offset where the problem
 * was found and the reason. {@link #getMessage()} is the one line the import prints:
 * {@code file X: corrupt at byte offset N: reason}.
 */
public final class CorruptFileException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;
    private final String reason;

    public CorruptFileException(Path file, long offset, String reason, Throwable cause) {
        super("file " + file + ": corrupt at byte offset " + offset + ": " + reason, cause);
        this.file = file;
        this.offset = offset;
        this.reason = reason;
    }

    public Path file() {
        return file;
    }

    /** Byte offset of the problem in the file: the chunk, header field or point where it ends. */
    public long offset() {
        return offset;
    }

    public String reason() {
        return reason;
    }
}
