package io.cctflow.agent.transport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;

/**
 * Whose a spill directory is, stored in its {@value SpillDirectory#OWNER_FILE} file as two lines:
 * the kind of records ({@code "batch(es)"}, {@code "manifest(s)"}) and the key they are sent under
 * (for batches the execution key, {@code io.cctflow.core.ExecutionId#key()}).
 */
record SpillOwner(String kind, String recordKey) {
    /** Writes it into {@code dir} (complete or not at all: a temporary file renamed). */
    void writeTo(Path dir) throws IOException {
        Path tmp = dir.resolve(SpillDirectory.OWNER_FILE + ".new");
        Files.write(tmp, List.of(kind, recordKey), StandardCharsets.UTF_8);
        try {
            Files.move(tmp, dir.resolve(SpillDirectory.OWNER_FILE), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, dir.resolve(SpillDirectory.OWNER_FILE), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The owner recorded in {@code dir}; empty if none is (a directory of an older agent) or it is unreadable. */
    static Optional<SpillOwner> readFrom(Path dir) {
        try {
            List<String> lines = Files.readAllLines(dir.resolve(SpillDirectory.OWNER_FILE), StandardCharsets.UTF_8);
            return lines.size() == 2 ? Optional.of(new SpillOwner(lines.get(0), lines.get(1))) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
