package io.cctflow.agent.importer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import org.junit.jupiter.api.Test;

class WatchedFilesTest {
    private static final Path FILE = Path.of("in", "rec.jfr");

    private final WatchedFiles watched = new WatchedFiles();

    private static WatchedFiles.State state(long size, long modifiedMillis) {
        return new WatchedFiles.State(size, FileTime.fromMillis(modifiedMillis));
    }

    @Test
    void aFileIsDueWhenItIsTheSameAtTwoLooksInARow() {
        assertThat(watched.due(FILE, state(10, 1))).as("first look").isFalse();
        assertThat(watched.due(FILE, state(10, 1))).as("second look, unchanged").isTrue();
    }

    @Test
    void aFileStillGrowingOrTouchedIsNotDueUntilItStopsChanging() {
        assertThat(watched.due(FILE, state(10, 1))).isFalse();
        assertThat(watched.due(FILE, state(20, 2))).as("grew").isFalse();
        assertThat(watched.due(FILE, state(20, 3))).as("touched, same size").isFalse();
        assertThat(watched.due(FILE, state(20, 3))).as("unchanged for one look").isTrue();
    }

    @Test
    void aFileThatVanishesStartsOverWhenItComesBack() {
        watched.due(FILE, state(10, 1));
        assertThat(watched.due(FILE, null)).isFalse();
        assertThat(watched.due(FILE, state(10, 1))).as("first look after it came back").isFalse();
        assertThat(watched.due(FILE, state(10, 1))).isTrue();
    }

    @Test
    void anImportedFileIsNeverDueAgainEvenWhenItChanges() {
        watched.due(FILE, state(10, 1));
        watched.due(FILE, state(10, 1));
        assertThat(watched.imported(FILE, state(10, 1))).as("had failed before").isFalse();

        for (int look = 0; look < 3; look++) {
            assertThat(watched.due(FILE, state(10, 1))).as("unchanged, look %s", look).isFalse();
        }
        for (int look = 0; look < 3; look++) {
            assertThat(watched.due(FILE, state(99, 5))).as("changed, look %s", look).isFalse();
        }
    }

    @Test
    void aFileWrittenOnAfterItsImportIsReportedOnce() {
        watched.due(FILE, state(10, 1));
        watched.due(FILE, state(10, 1));
        watched.imported(FILE, state(10, 1));

        assertThat(watched.changedSinceImport(FILE, state(10, 1))).as("unchanged").isFalse();
        assertThat(watched.changedSinceImport(FILE, null)).as("gone").isFalse();
        assertThat(watched.changedSinceImport(FILE, state(25, 4))).as("grew after its import").isTrue();
        assertThat(watched.changedSinceImport(FILE, state(40, 6))).as("reported once").isFalse();
        assertThat(watched.due(FILE, state(40, 6))).isFalse();
        assertThat(watched.changedSinceImport(Path.of("in", "never-imported.jfr"), state(1, 1))).isFalse();
    }

    @Test
    void aFailedFileIsDueAgainOnlyOnceItChangedAndThenStayedTheSame() {
        watched.due(FILE, state(10, 1));
        watched.due(FILE, state(10, 1));
        assertThat(watched.failed(FILE, state(10, 1), true)).as("had failed before").isFalse();

        for (int look = 0; look < 3; look++) {
            assertThat(watched.due(FILE, state(10, 1))).as("unchanged, look %s", look).isFalse();
        }
        assertThat(watched.due(FILE, state(30, 2))).as("changed").isFalse();
        assertThat(watched.due(FILE, state(30, 2))).as("changed, then unchanged").isTrue();
        assertThat(watched.imported(FILE, state(30, 2))).as("had failed before").isTrue();
        assertThat(watched.due(FILE, state(30, 2))).isFalse();
    }

    @Test
    void aFileFailingAgainAfterItChangedWaitsForTheNextChange() {
        watched.due(FILE, state(10, 1));
        watched.due(FILE, state(10, 1));
        watched.failed(FILE, state(10, 1), true);
        watched.due(FILE, state(30, 2));
        watched.due(FILE, state(30, 2));

        assertThat(watched.failed(FILE, state(30, 2), true)).as("had failed before").isTrue();

        assertThat(watched.due(FILE, state(30, 2))).isFalse();
        assertThat(watched.due(FILE, state(30, 2))).isFalse();
        assertThat(watched.due(FILE, state(50, 3))).isFalse();
        assertThat(watched.due(FILE, state(50, 3))).isTrue();
    }

    @Test
    void aFailedFileOfWhichSomethingWasPublishedIsNeverDueAgain() {
        watched.due(FILE, state(10, 1));
        watched.due(FILE, state(10, 1));

        watched.failed(FILE, state(10, 1), false);

        for (int look = 0; look < 3; look++) {
            assertThat(watched.due(FILE, state(30, 2))).as("changed, look %s", look).isFalse();
        }
    }

    @Test
    void filesAreTrackedApart() {
        Path other = Path.of("in", "other.jfr");
        watched.due(FILE, state(10, 1));
        watched.due(FILE, state(10, 1));
        watched.imported(FILE, state(10, 1));

        assertThat(watched.due(other, state(10, 1))).isFalse();
        assertThat(watched.due(other, state(10, 1))).isTrue();
    }
}
