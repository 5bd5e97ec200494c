package io.cctflow.standalone;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/** Finds retained Flink checkpoints: {@code <dir>/<job id>/chk-<n>/_metadata}. */
public final class Checkpoints {
    private Checkpoints() {
    }

    /** The newest complete checkpoint under {@code dir}, if any. */
    public static Optional<Path> latest(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> found = Files.find(dir, 2, (path, attrs) -> attrs.isDirectory()
                && path.getFileName().toString().startsWith("chk-")
                && Files.isRegularFile(path.resolve("_metadata")))) {
            return found.max(Comparator.comparing(Checkpoints::modified));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list checkpoints in " + dir, e);
        }
    }

    private static FileTime modified(Path checkpoint) {
        try {
            return Files.getLastModifiedTime(checkpoint.resolve("_metadata"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
