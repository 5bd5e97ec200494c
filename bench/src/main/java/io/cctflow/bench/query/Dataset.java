package io.cctflow.bench.query;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
        try (Writer w = Files.newBufferedWriter(dir.resolve(FILE), StandardCharsets.UTF_8)) {
            p.store(w, "written by io.cctflow.bench.query.QueryBenchmark --phase build");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(FILE), e);
        }
    }

    /** @throws IllegalArgumentException if {@code dir} holds no complete build */
    static Dataset load(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(dir + " holds no dataset (" + FILE + " is missing): run --phase build"
                    + " with --data-dir " + dir + " first");
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return new Dataset(i(p, "instances"), i(p, "deployments"), i(p, "hours"), l(p, "windowMillis"), i(p, "samplesPerWindow"),
                l(p, "fromMillis"), l(p, "toMillis"), l(p, "fineWindows"), l(p, "rollupWindows"),
                i(p, "topologyNodes"), d(p, "meanWindowNodes"), l(p, "storeBytes"), l(p, "transactionLogBytes"),
                d(p, "windowWriteSeconds"), d(p, "rollupSeconds"), i(p, "diffNodesA"), i(p, "diffNodesB"),
                i(p, "treeNodes"));
    }

    /** Store bytes per (instance, day) of the fleet dataset. */
    double storeBytesPerInstanceDay() {
        return (double) storeBytes * 24 / ((long) instances * hours);
    }

    private static String get(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null) {
            throw new IllegalArgumentException(FILE + " lacks '" + key + "': the build did not finish; build again");
        }
        return v;
    }

    private static int i(Properties p, String key) {
        return Integer.parseInt(get(p, key));
    }

    private static long l(Properties p, String key) {
        return Long.parseLong(get(p, key));
    }

    private static double d(Properties p, String key) {
        return Double.parseDouble(get(p, key));
    }
}
