package io.cctflow.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointsTest {

    private static void checkpoint(Path dir, String job, int n, Instant time, boolean complete) throws Exception {
        Path chk = Files.createDirectories(dir.resolve(job).resolve("chk-" + n));
        if (complete) {
            Path metadata = Files.writeString(chk.resolve("_metadata"), "x");
            Files.setLastModifiedTime(metadata, FileTime.from(time));
        }
    }

    @Test
    void picksTheNewestCompleteCheckpointOfAnyJob(@TempDir Path dir) throws Exception {
        checkpoint(dir, "job-a", 7, Instant.parse("2026-11-21T10:00:00Z"), true);
        checkpoint(dir, "job-b", 2, Instant.parse("2026-11-21T11:00:00Z"), true);
        checkpoint(dir, "job-b", 3, Instant.parse("2026-11-21T12:00:00Z"), false); // still being written
        assertThat(Checkpoints.latest(dir)).contains(dir.resolve("job-b").resolve("chk-2"));
    }

    @Test
    void nothingToResumeFromInAnEmptyOrMissingDirectory(@TempDir Path dir) {
        assertThat(Checkpoints.latest(dir)).isEmpty();
        assertThat(Checkpoints.latest(dir.resolve("missing"))).isEmpty();
    }
}
