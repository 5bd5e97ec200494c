package io.cctflow.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetFileTest {
    @TempDir
    Path dir;

    @Test
    void whatIsWrittenReadsBack() {
        Properties p = new Properties();
        p.setProperty("instances", "1000");
        p.setProperty("toMillis", "1700006400000");
        p.setProperty("mean", "0.25");
        p.setProperty("sizes", "1,2,3");
        DatasetFile.write(dir.resolve("d.properties"), p, "a test");
        DatasetFile f = DatasetFile.read(dir.resolve("d.properties"), "run the build");
        assertThat(f.getInt("instances")).isEqualTo(1000);
        assertThat(f.getLong("toMillis")).isEqualTo(1_700_006_400_000L);
        assertThat(f.getDouble("mean")).isEqualTo(0.25);
        assertThat(f.get("sizes")).isEqualTo("1,2,3");
    }

    @Test
    void aMissingFileOrKeySaysWhatToRun() {
        assertThatThrownBy(() -> DatasetFile.read(dir.resolve("d.properties"), "run --phase build first"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(dir + " holds no dataset (d.properties is missing): run --phase build first");
        DatasetFile.write(dir.resolve("d.properties"), new Properties(), "a test");
        assertThatThrownBy(() -> DatasetFile.read(dir.resolve("d.properties"), "x").getLong("toMillis"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lacks 'toMillis'")
                .hasMessageContaining("run it again");
    }
}
