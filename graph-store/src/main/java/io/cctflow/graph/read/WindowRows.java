package io.cctflow.graph.read;

import io.cctflow.core.RawThreadNames;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.NodeNumbering;
import io.cctflow.graph.NodeNumbers;
import io.cctflow.graph.PackedWindow;
import io.cctflow.graph.UnknownNodeNumbersException;
import io.cctflow.graph.SelfCounts;
import io.cctflow.graph.Keys;
import io.cctflow.graph.WindowChecksum;
import io.cctflow.model.Resolution;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.neo4j.driver.Record;
import org.neo4j.driver.Value;

/**
 * How windows are read: the columns a window query returns ({@link #COLUMNS}), their decoding
 * into {@link WindowCounts}, and the checks that catch a window read while it was being rewritten.
 */
public final class WindowRows {
    /** Reads of windows that met a window being rewritten, before giving up ({@link #read}). */
    static final int TORN_READ_ATTEMPTS = 5;
    /**
     * Reads that met node numbers this JVM had not learnt ({@link NodeNumbers}), each followed by
     * learning them, before giving up: one is usual (a cold reader); more only while windows with
     * newer nodes are written meanwhile.
     */
    static final int LEARNING_READS = 20;

    private WindowRows() {
    }

    /** What a window query returns: the arrays of {@link WindowCounts}. */
    public static final String COUNT_COLUMNS = """
            RETURN w.instance AS instance, w.resolution AS resolution, w.start AS start, w.end AS end, w.written AS written,
                   w.counts AS counts, w.nodeIds AS nodeIds, w.self AS self, w.total AS total,
                   w.threadNodeIds AS threadNodeIds, w.threadIds AS threadIds, w.threadSelf AS threadSelf,
                   w.threadDictIds AS threadDictIds, w.threadDictNames AS threadDictNames,
                   w.threadRawNames AS threadRawNames,
                   w.methodIds AS methodIds, w.methodSamples AS methodSamples, w.methodSelf AS methodSelf,
                   w.truncatedMerged AS truncatedMerged, w.truncatedPending AS truncatedPending,
                   w.truncatedAmbiguous AS truncatedAmbiguous, w.truncatedExpired AS truncatedExpired,
                   w.checksum AS checksum""";

    /** {@link #COUNT_COLUMNS} and the members of a deployment's roll-up (null for other windows). */
    public static final String COLUMNS = COUNT_COLUMNS + ", w.members AS members\n";

    /** The name ({@link Keys#window}) of the window of a record of {@link #COLUMNS}. */
    public static String key(Record r) {
        return Keys.window(r.get("instance").asString(), Resolution.ofProperty(r.get("resolution").asString()),
                r.get("start").asLong());
    }

    /**
     * {@link #COLUMNS} and what a roll-up holds ({@code io.cctflow.graph.RollupCoverage}): valid
     * only when written for the counts stored with it ({@code coverFor} = {@code checksum}).
     */
    static final String COVERED_COLUMNS = COLUMNS.stripTrailing() + """
            , w.coverStarts AS coverStarts, w.coverChecksums AS coverChecksums,
                   coalesce(w.coverFor = w.checksum, false) AS coverValid
            """;

    /**
     * The window of a record of {@link #COLUMNS}, checked, as its projection ({@link SelfCounts}:
     * what windows are stored as; those of the layouts before are projected once checked); node
     * numbers (packed format 4) decoded by {@code numbering}.
     *
     * @throws UnknownNodeNumbersException if {@code numbering} does not know some of them

     * @throws RuntimeException if its columns do not fit together (read while being rewritten, or damaged)
     */
    public static WindowCounts toWindow(Record r, NodeNumbering numbering) {
        try {
            WindowCounts w = toWindowCounts(r, numbering);
            checkSumsAgree(w.counts());
            checkChecksum(w, r.get("checksum"));
            // windows of the layouts before hold whole tables: every reader gets the projection
            return new WindowCounts(w.executionKey(), w.windowStartMillis(), w.windowEndMillis(),
                    SelfCounts.project(w.counts()), w.truncation());
        } catch (IllegalArgumentException e) {
            throw new TornWindowException(r.get("instance").asString() + "@" + r.get("start").asLong(), e);
        }
    }

    /**
     * Each table of a window taken alone can look whole while coming from another write than the
     * next table (read-committed reads of a window being rewritten): the self counts summed over
     * nodes and over (node, thread) entries are the same samples (Eq. 3.16), so they must agree.
     * An empty per-thread table is not compared.
     *
     * @throws IllegalArgumentException if they do not
     */
    private static void checkSumsAgree(TreeCounts c) {
        long nodes = sum(c.self());
        long threads = sum(c.threadSelf());
        if (c.threadSelf().length > 0 && threads != nodes) {
            throw new IllegalArgumentException("self samples " + nodes + " by node, " + threads + " by thread");
        }
    }

    /**
     * The window's tables must be the ones its {@link WindowChecksum} was computed over: a read that
     * took them from different writes gets another checksum (windows written before checksums
     * existed have none and are not checked).
     *
     * @throws IllegalArgumentException if the checksum differs
     */
    private static void checkChecksum(WindowCounts w, Value stored) {
        if (!stored.isNull() && stored.asLong() != WindowChecksum.of(w.counts(), w.truncation())) {
            throw new IllegalArgumentException("tables do not match the checksum written with them");
        }
    }

    private static long sum(long[] values) {
        long s = 0;
        for (long v : values) {
            s += v;
        }
        return s;
    }

    private static WindowCounts toWindowCounts(Record r, NodeNumbering numbering) {
        return new WindowCounts(r.get("instance").asString(), r.get("start").asLong(), r.get("end").asLong(),
                counts(r, numbering),
                new TruncationCounts(r.get("truncatedMerged").asLong(0), r.get("truncatedPending").asLong(0),
                        r.get("truncatedAmbiguous").asLong(0), r.get("truncatedExpired").asLong(0)));
    }

    /** The packed counts ({@link PackedWindow}), or the columns of windows written before them. */
    private static TreeCounts counts(Record r, NodeNumbering numbering) {
        Value packed = r.get("counts");
        if (!packed.isNull()) {
            return PackedWindow.unpack(packed.asByteArray(), numbering);
        }
        return TreeCounts.of(Reads.longs(r.get("nodeIds")), Reads.longs(r.get("self")), Reads.longs(r.get("total")),
                Reads.longs(r.get("threadNodeIds")), Reads.longs(r.get("threadIds")), Reads.longs(r.get("threadSelf")),
                Reads.longs(r.get("threadDictIds")), Reads.strings(r.get("threadDictNames")),
                Reads.longs(r.get("methodIds")), Reads.longs(r.get("methodSamples")), Reads.longs(r.get("methodSelf")))
                .withRawThreadNames(RawThreadNames.of(Reads.strings(r.get("threadRawNames"))));
    }

    /**
     * Reads windows with {@code query} ({@link #COLUMNS}). Neo4j reads are read-committed:
     * a read can see a window's properties half from before and half from after a concurrent
     * rewrite (the samples job rewrites a window with every batch it adds), which shows as
     * columns that do not fit together; such a read is repeated, up to {@value #TORN_READ_ATTEMPTS}
     * times.
     */
    static List<WindowCounts> read(Reads reads, String query, Map<String, Object> params) {
        return read(reads, query, params, r -> toWindow(r, reads.numbering()));
    }

    static <T> List<T> read(Reads reads, String query, Map<String, Object> params,
            Function<Record, T> map) {
        return foldRecords(reads, query, params, ArrayList::new, (out, r) -> out.add(map.apply(r)));
    }

    /**
     * Windows read with {@code query} ({@link #COLUMNS}) folded into an accumulator one at a time,
     * as they are decoded, none held: each read, the first and every repeat of a torn one ({@link
     * #read}), folds into a fresh accumulator from {@code fresh}, and the one of a read that met a
     * torn window is dropped, so what that read folded before is not counted twice.
     */
    static <A> A fold(Reads reads, String query, Map<String, Object> params, Supplier<A> fresh,
            BiConsumer<A, WindowCounts> fold) {
        return foldRecords(reads, query, params, fresh, (acc, r) -> fold.accept(acc, toWindow(r, reads.numbering())));
    }

    /** {@link Reads#fold}, repeated as {@link #read} says when a window was torn. */
    private static <A> A foldRecords(Reads reads, String query, Map<String, Object> params, Supplier<A> fresh,
            BiConsumer<A, Record> fold) {
        for (int attempt = 1, learnt = 0; ; ) {
            try {
                return reads.fold(query, params, fresh, fold);
            } catch (TornWindowException e) {
                if (attempt >= TORN_READ_ATTEMPTS) {
                    throw new IllegalStateException(e.getMessage() + " in " + attempt + " reads in a row", e);
                }
                attempt++;
            } catch (UnknownNodeNumbersException e) {
                // learnt outside the read's transaction (no second connection held meanwhile), then read again
                if (++learnt > LEARNING_READS) {
                    throw new IllegalStateException("node numbers still unknown after " + LEARNING_READS
                            + " reads learnt them", e);
                }
                reads.learn(e);
            }
        }
    }

    /** A window whose columns do not fit together: read while it was being rewritten, or damaged. */
    private static final class TornWindowException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TornWindowException(String key, IllegalArgumentException cause) {
            super("window " + key + " has inconsistent count columns (" + cause.getMessage() + ")", cause);
        }
    }
}
