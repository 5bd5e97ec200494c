package io.cctflow.bench.query;

import io.cctflow.bench.DatasetFile;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What a build wrote, kept next to the Neo4j store ({@code dataset.properties}) so a later
 * {@code --phase measure} run knows the ranges and names to query. Immutable.
 *
 * @param fromMillis first fine window's start of the fleet dataset (a UTC midnight)
 * @param toMillis the fleet dataset's end (exclusive; a UTC midnight)
 * @param meanWindowNodes mean number of nodes with counts per fine window
 * @param storeBytes size of the Neo4j store directory after the fleet dataset and its roll-ups
 *     were written (before the synthetic deployments were added)
 * @param treeNodes nodes below {@link SyntheticDeployments#TREE_METHOD} in version v1
 */
record Dataset(int instances, int deployments, int hours, long windowMillis, int samplesPerWindow, long fromMillis, long toMillis,
        long fineWindows, long rollupWindows, int topologyNodes, double meanWindowNodes, long storeBytes,
        long transactionLogBytes, double windowWriteSeconds, double rollupSeconds, int diffNodesA, int diffNodesB,
        int treeNodes) {

    static final String FILE = "dataset.properties";

    void save(Path dir) {
        Properties p = new Properties();
        p.setProperty("instances", Integer.toString(instances));
        p.setProperty("deployments", Integer.toString(deployments));
        p.setProperty("hours", Integer.toString(hours));
        p.setProperty("windowMillis", Long.toString(windowMillis));
        p.setProperty("samplesPerWindow", Integer.toString(samplesPerWindow));
        p.setProperty("fromMillis", Long.toString(fromMillis));
        p.setProperty("toMillis", Long.toString(toMillis));
        p.setProperty("fineWindows", Long.toString(fineWindows));
        p.setProperty("rollupWindows", Long.toString(rollupWindows));
        p.setProperty("topologyNodes", Integer.toString(topologyNodes));
        p.setProperty("meanWindowNodes", Double.toString(meanWindowNodes));
        p.setProperty("storeBytes", Long.toString(storeBytes));
        p.setProperty("transactionLogBytes", Long.toString(transactionLogBytes));
        p.setProperty("windowWriteSeconds", Double.toString(windowWriteSeconds));
        p.setProperty("rollupSeconds", Double.toString(rollupSeconds));
        p.setProperty("diffNodesA", Integer.toString(diffNodesA));
        p.setProperty("diffNodesB", Integer.toString(diffNodesB));
        p.setProperty("treeNodes", Integer.toString(treeNodes));
        DatasetFile.write(dir.resolve(FILE), p, "io.cctflow.bench.query.QueryBenchmark --phase build");
    }

    /** @throws IllegalArgumentException if {@code dir} holds no complete build */
    static Dataset load(Path dir) {
        DatasetFile f = DatasetFile.read(dir.resolve(FILE), "run --phase build with --data-dir " + dir + " first");
        return new Dataset(f.getInt("instances"), f.getInt("deployments"), f.getInt("hours"), f.getLong("windowMillis"),
                f.getInt("samplesPerWindow"), f.getLong("fromMillis"), f.getLong("toMillis"), f.getLong("fineWindows"),
                f.getLong("rollupWindows"), f.getInt("topologyNodes"), f.getDouble("meanWindowNodes"),
                f.getLong("storeBytes"), f.getLong("transactionLogBytes"), f.getDouble("windowWriteSeconds"),
                f.getDouble("rollupSeconds"), f.getInt("diffNodesA"), f.getInt("diffNodesB"), f.getInt("treeNodes"));
    }

    /** Store bytes per (instance, day) of the fleet dataset. */
    double storeBytesPerInstanceDay() {
        return (double) storeBytes * 24 / ((long) instances * hours);
    }
}
