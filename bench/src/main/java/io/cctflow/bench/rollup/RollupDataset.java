package io.cctflow.bench.rollup;

import io.cctflow.bench.BenchArgs;
import io.cctflow.bench.DatasetFile;
import io.cctflow.model.Resolution;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * What {@code --phase write} wrote, kept beside the Neo4j home ({@value #FILE}) so {@code --phase
 * pass} knows the hours and can draw the same windows again (same seed, pool and samples).
 *
 * @param sizes instances written in hour number h (01:00 + h of {@code day}), ascending
 * @param day the UTC midnight the hours belong to
 * @param writtenMillis when the last window was written (wall clock)
 */
record RollupDataset(int[] sizes, int samplesPerWindow, int pool, long seed, long day, long writtenMillis) {
    static final String FILE = "rollup-dataset.properties";

    /** From the command line's options, before anything is written. */
    static RollupDataset of(Map<String, String> o, long day) {
        int[] sizes;
        try {
            sizes = Arrays.stream(o.get("instances").split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--instances must be counts separated by commas, was " + o.get("instances"), e);
        }
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] < 1 || (i > 0 && sizes[i] < sizes[i - 1])) {
                throw new IllegalArgumentException("--instances must be ascending positive counts, was " + o.get("instances"));
            }
        }
        if (sizes.length > 22) {
            throw new IllegalArgumentException("--instances: at most 22 hours fit in one day, was " + sizes.length);
        }
        return new RollupDataset(sizes, BenchArgs.positive(o, "samples-per-window"), BenchArgs.positive(o, "pool"),
                Long.parseLong(o.get("seed")), day, 0);
    }

    /** Hour number {@code h}: 01:00 + h, so no hour is the day's first or last. */
    long hourStart(int h) {
        return day + (h + 1) * Resolution.HOUR.millis();
    }

    int largest() {
        return sizes[sizes.length - 1];
    }

    /** Records that everything is written now; returns this with {@code writtenMillis} now. */
    RollupDataset save(Path dir) {
        RollupDataset saved = new RollupDataset(sizes, samplesPerWindow, pool, seed, day, System.currentTimeMillis());
        Properties p = new Properties();
        p.setProperty("sizes", Arrays.stream(sizes).mapToObj(Integer::toString).collect(Collectors.joining(",")));
        p.setProperty("samplesPerWindow", Integer.toString(samplesPerWindow));
        p.setProperty("pool", Integer.toString(pool));
        p.setProperty("seed", Long.toString(seed));
        p.setProperty("day", Long.toString(day));
        p.setProperty("writtenMillis", Long.toString(saved.writtenMillis));
        DatasetFile.write(dir.resolve(FILE), p, "io.cctflow.bench.rollup.RollupBenchmark --phase write");
        return saved;
    }

    /** @throws IllegalArgumentException if {@code dir} holds no complete write */
    static RollupDataset load(Path dir) {
        DatasetFile f = DatasetFile.read(dir.resolve(FILE), "run --phase write --data-dir " + dir + " first");
        return new RollupDataset(Arrays.stream(f.get("sizes").split(",")).mapToInt(Integer::parseInt).toArray(),
                f.getInt("samplesPerWindow"), f.getInt("pool"), f.getLong("seed"), f.getLong("day"),
                f.getLong("writtenMillis"));
    }

    @Override
    public String toString() {
        return String.format("instances %s, %,d samples per instance-minute, %d pool windows, seed %d, day %s",
                Arrays.toString(sizes), samplesPerWindow, pool, seed, java.time.Instant.ofEpochMilli(day));
    }
}
