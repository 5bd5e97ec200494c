package io.cctflow.graph.read;

import io.cctflow.core.TreeCounts;
import io.cctflow.graph.FineWindowBound;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.Keys;
import io.cctflow.graph.RollupCoverage;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import io.cctflow.model.WindowSpan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Value;

/**
 * Reads stored windows: the fine windows of executions, roll-ups by resolution, and (with {@link
 * #plan}) a time range from as few rows as the roll-ups allow, served from the window cache where
 * it can be. Every query takes parameters; none is built from user input.
 *
 * <p>Windows are stored as projections ({@link io.cctflow.graph.SelfCounts}: self counts only).
 * Every read returns them whole ({@link CountsExpansion}: totals and per-method tables derived
 * from the topology, one topology read per call; a plan's sum is expanded once, after summing),
 * except through a reader made by {@link #asStored}, which the roll-up pass uses: it sums and
 * stores projections and needs no topology. The window cache keeps projections.
 *
 * <p>Thread-safe as far as the {@link Driver} is; the caller owns the driver.
 */
public final class WindowReader {
    /** Fine windows of the executions {@code $keys} that overlap [{@code $from}, {@code $to}). */
    static final String STORED_WINDOWS = FineWindowBound.LOOKBACK + """
            MATCH (w:Window)
            """ + GraphSchema.SEEK_WINDOWS_BY_INSTANCE + """
            WHERE w.instance IN $keys AND w.resolution = $fine AND w.start > $from - longestFine
              AND w.start < $to AND w.end > $from
            """ + WindowRows.COLUMNS;

    /** Windows of the executions {@code $keys} and {@code $resolution} starting in [{@code $from}, {@code $to}). */
    static final String COVERED_WINDOWS = """
            MATCH (w:Window)
            """ + GraphSchema.SEEK_WINDOWS_BY_INSTANCE + """
            WHERE w.instance IN $keys AND w.resolution = $resolution AND w.start >= $from AND w.start < $to
            """ + WindowRows.COVERED_COLUMNS;

    /**
     * The longest fine window the samples job may be configured to write (its {@code window}, 1 min
     * by default). Range reads do not rely on it: they look back as far as the longest fine window
     * the store recorded ({@link FineWindowBound}).
     */
    public static final long MAX_FINE_WINDOW_MILLIS = 3_600_000;
    /** Rows of decoded windows the default reader keeps in memory ({@link WindowCache}). */
    public static final long DEFAULT_WINDOW_CACHE_ROWS = WindowCache.DEFAULT_ROWS;
    /**
     * How far before a pass began a write committed meanwhile may date its {@code written}
     * (the database clock): roll-up passes look back this far, and the window cache keeps only
     * versions settled this long.
     */
    public static final long WRITE_MARGIN_MILLIS = 60_000;

    private final Reads reads;
    private final VersionedWindows versions;
    private final RangePlanner planner;
    /** Makes stored (projected) counts whole: the topology's expansion, or nothing ({@link #asStored}). */
    private final UnaryOperator<List<TreeCounts>> whole;

    /** A reader with a window cache of {@link #DEFAULT_WINDOW_CACHE_ROWS}. */
    public WindowReader(Driver driver, String database) {
        this(driver, database, DEFAULT_WINDOW_CACHE_ROWS);
    }

    /** @param windowCacheRows most rows of decoded windows kept in memory; 0 turns the window cache off */
    public WindowReader(Driver driver, String database, long windowCacheRows) {
        this(driver, database, windowCacheRows, null);
    }

    /**
     * @param windowCacheRows most rows of decoded windows kept in memory; 0 turns the window cache off
     * @param transactionTimeout each read transaction's timeout; null: the server's default
     */
    public WindowReader(Driver driver, String database, long windowCacheRows, Duration transactionTimeout) {
        this(driver, database, windowCacheRows, transactionTimeout,
                new TopologyReader(driver, database, TopologyReader.DEFAULT_TOPOLOGY_CACHE_NODES, transactionTimeout));
    }

    /**
     * @param windowCacheRows most rows of decoded windows kept in memory; 0 turns the window cache off
     * @param transactionTimeout each read transaction's timeout; null: the server's default
     * @param topology what stored windows are expanded with ({@link CountsExpansion}); share the
     *     query service's, so one topology cache serves both
     */
    public WindowReader(Driver driver, String database, long windowCacheRows, Duration transactionTimeout,
            TopologyReader topology) {
        this(driver, database, new WindowCache(windowCacheRows, WRITE_MARGIN_MILLIS), transactionTimeout, topology);
    }

    /** A reader over {@code windowCache} (for tests that size or settle it themselves). */
    public WindowReader(Driver driver, String database, WindowCache windowCache) {
        this(driver, database, windowCache, null, new TopologyReader(driver, database));
    }

    private WindowReader(Driver driver, String database, WindowCache windowCache, Duration transactionTimeout,
            TopologyReader topology) {
        this.reads = new Reads(driver, database, transactionTimeout);
        this.versions = new VersionedWindows(reads, windowCache);
        this.whole = topology == null ? UnaryOperator.identity() : topology::expandAll;
        this.planner = new RangePlanner(versions, whole);
    }

    /**
     * A reader that returns windows as stored (projections, {@link io.cctflow.graph.SelfCounts}) and
     * keeps no window cache: what the roll-up pass reads, sums and writes back, with no topology.
     */
    public static WindowReader asStored(Driver driver, String database) {
        return new WindowReader(driver, database, new WindowCache(0L, WRITE_MARGIN_MILLIS), null, null);
    }

    /** The windows whole ({@link TopologyReader#expandAll}), or as stored for {@link #asStored}. */
    private List<WindowCounts> whole(List<WindowCounts> stored) {
        return withCounts(stored, whole);
    }

    /** The windows with their counts replaced by {@code f} of all of them (one call). */
    static List<WindowCounts> withCounts(List<WindowCounts> windows, UnaryOperator<List<TreeCounts>> f) {
        List<TreeCounts> counts = f.apply(windows.stream().map(WindowCounts::counts).toList());
        List<WindowCounts> out = new ArrayList<>(windows.size());
        for (int i = 0; i < windows.size(); i++) {
            WindowCounts w = windows.get(i);
            out.add(new WindowCounts(w.executionKey(), w.windowStartMillis(), w.windowEndMillis(), counts.get(i),
                    w.truncation()));
        }
        return out;
    }

    /** Empties the window cache (the next range reads decode every window again); for measurements. */
    public void clearWindowCache() {
        versions.clearCache();
    }

    /**
     * Which windows a read of [fromMillis, toMillis) over the executions fetches: roll-ups where
     * they cover the range, fine windows for the rest ({@link RangePlanner}).
     */
    public RangePlanner.Plan plan(Collection<String> executionKeys, long fromMillis, long toMillis) {
        return planner.plan(executionKeys, fromMillis, toMillis);
    }

    /** {@link RangePlanner#planByGroups}: a range plan that reads instance groups' roll-ups instead of deployments'. */
    public RangePlanner.Plan planByGroups(Collection<String> executionKeys, long fromMillis, long toMillis, int groups) {
        return planner.planByGroups(executionKeys, fromMillis, toMillis, groups);
    }

    /** {@link RangePlanner#versions}: a plan's settled versions, in one round trip when no window changed since. */
    public RangePlanner.Versions versions(Collection<String> executionKeys, long fromMillis, long toMillis) {
        return planner.versions(executionKeys, fromMillis, toMillis);
    }

    /** The windows of {@link #plan}: their sum equals that of the fine windows overlapping the range. */
    public List<WindowCounts> range(Collection<String> executionKeys, long fromMillis, long toMillis) {
        return plan(executionKeys, fromMillis, toMillis).read();
    }

    /** The summed counts of windows ({@link TreeCounts#sum}: one pass). */
    public static TreeCounts sum(Collection<WindowCounts> windows) {
        List<TreeCounts> counts = new ArrayList<>(windows.size());
        for (WindowCounts w : windows) {
            counts.add(w.counts());
        }
        return TreeCounts.sum(counts);
    }

    /** The database's clock (epoch millis), the clock of {@code written} on windows. */
    public long databaseTimeMillis() {
        return versions.databaseTimeMillis();
    }

    /**
     * Fine windows (as the samples job wrote them) of the given executions that overlap
     * [fromMillis, toMillis), looked for back to the longest fine window stored ({@link
     * FineWindowBound}). For long ranges use {@link #plan}, which reads roll-ups.
     */
    public List<WindowCounts> windows(Collection<String> executionKeys, long fromMillis, long toMillis) {
        return whole(storedWindows(executionKeys, fromMillis, toMillis));
    }

    /**
     * {@link #windows(Collection, long, long)} as stored (projections, {@link io.cctflow.graph.SelfCounts}):
     * for a caller that sums many windows before it makes the sums whole ({@link
     * TopologyReader#expandAll}), which equals summing them whole and costs one expansion per sum
     * instead of one per window.
     */
    public List<WindowCounts> storedWindows(Collection<String> executionKeys, long fromMillis, long toMillis) {
        return foldStoredWindows(executionKeys, fromMillis, toMillis, ArrayList::new, List::add);
    }

    /**
     * {@link #storedWindows} folded into an accumulator one window at a time, as the driver streams
     * them, none held: what a caller that only sums the windows needs, in memory bounded by its
     * sums, not by the windows. Each read (a read that met a window being rewritten is repeated,
     * {@link WindowRows#read}) folds into a fresh accumulator from {@code fresh}; only the one of
     * the read that succeeded is returned, so nothing is counted twice.
     */
    public <A> A foldStoredWindows(Collection<String> executionKeys, long fromMillis, long toMillis,
            Supplier<A> fresh, BiConsumer<A, WindowCounts> fold) {
        return WindowRows.fold(reads, STORED_WINDOWS,
                Reads.params("keys", List.copyOf(executionKeys), "from", fromMillis, "to", toMillis,
                        "fine", Resolution.FINE.property()), fresh, fold);
    }

    /**
     * Windows of one resolution, of every execution, whose start lies in [fromStart, toStart);
     * roll-ups of whole deployments are not among them ({@link #deploymentWindowsStartingIn}).
     */
    public List<WindowCounts> windowsStartingIn(Resolution resolution, long fromStart, long toStart) {
        return whole(WindowRows.read(reads, """
                MATCH (w:Window)
                WHERE w.resolution = $resolution AND w.start >= $from AND w.start < $to AND w.members IS NULL
                """ + WindowRows.COLUMNS,
                Reads.params("resolution", resolution.property(), "from", fromStart, "to", toStart)));
    }

    /** Roll-ups of whole deployments of one resolution whose start lies in [fromStart, toStart). */
    public List<DeploymentWindow> deploymentWindowsStartingIn(Resolution resolution, long fromStart, long toStart) {
        return sumsStartingIn(resolution, fromStart, toStart, false);
    }

    /** Roll-ups of instance groups ({@link Keys#instanceGroup}) of one resolution whose start lies in [fromStart, toStart). */
    public List<DeploymentWindow> groupWindowsStartingIn(Resolution resolution, long fromStart, long toStart) {
        return sumsStartingIn(resolution, fromStart, toStart, true);
    }

    private List<DeploymentWindow> sumsStartingIn(Resolution resolution, long fromStart, long toStart, boolean groups) {
        List<DeploymentWindow> stored = WindowRows.read(reads, """
                MATCH (w:Window)
                WHERE w.resolution = $resolution AND w.start >= $from AND w.start < $to AND w.members IS NOT NULL
                """ + WindowRows.COLUMNS,
                Reads.params("resolution", resolution.property(), "from", fromStart, "to", toStart),
                r -> new DeploymentWindow(WindowRows.toWindow(r, reads.numbering()), r.get("members").asList(Value::asString)))
                .stream().filter(d -> Keys.isInstanceGroup(d.window().executionKey()) == groups).toList();
        List<WindowCounts> windows = whole(stored.stream().map(DeploymentWindow::window).toList());
        List<DeploymentWindow> out = new ArrayList<>(stored.size());
        for (int i = 0; i < stored.size(); i++) {
            out.add(new DeploymentWindow(windows.get(i), stored.get(i).members()));
        }
        return out;
    }

    /** The counts of the given windows, by their spans; spans not stored are left out. */
    public List<WindowCounts> windows(Collection<WindowSpan> spans) {
        List<Map<String, Object>> identities = spans.stream()
                .map(s -> Keys.windowIdentity(s.executionKey(), s.resolution(), s.startMillis())).toList();
        return whole(WindowRows.read(reads, Keys.MATCH_WINDOWS + WindowRows.COLUMNS,
                Reads.params("windows", identities)));
    }

    /**
     * Distinct execution keys with windows of one resolution whose start lies in [fromStart,
     * toStart); roll-ups of whole deployments are not among them. Sorted.
     */
    public List<String> executionsWithWindows(Resolution resolution, long fromStart, long toStart) {
        return reads.read("""
                MATCH (w:Window)
                WHERE w.resolution = $resolution AND w.start >= $from AND w.start < $to AND w.members IS NULL
                RETURN DISTINCT w.instance AS instance ORDER BY instance
                """, Reads.params("resolution", resolution.property(), "from", fromStart, "to", toStart),
                r -> r.get("instance").asString());
    }

    /**
     * The windows of one execution and resolution whose start lies in [fromStart, toStart), each
     * with the fine windows it holds ({@link CoveredWindow}: a fine window itself, a roll-up what
     * was recorded with it).
     */
    public List<CoveredWindow> coveredWindows(String executionKey, Resolution resolution, long fromStart,
            long toStart) {
        return coveredWindows(List.of(executionKey), resolution, fromStart, toStart)
                .getOrDefault(executionKey, List.of());
    }

    /**
     * {@link #coveredWindows(String, Resolution, long, long)} of several executions in one query
     * (one round trip where a pass reads few windows of each of many executions), by execution key.
     */
    public Map<String, List<CoveredWindow>> coveredWindows(List<String> executionKeys, Resolution resolution,
            long fromStart, long toStart) {
        List<CoveredWindow> stored = WindowRows.read(reads, COVERED_WINDOWS,
                Reads.params("keys", executionKeys, "resolution", resolution.property(), "from", fromStart,
                        "to", toStart),
                r -> {
                    WindowCounts w = WindowRows.toWindow(r, reads.numbering());
                    if (resolution == Resolution.FINE) {
                        return CoveredWindow.fine(w);
                    }
                    return new CoveredWindow(w, r.get("coverValid").asBoolean(false)
                            ? new RollupCoverage(Reads.longs(r.get("coverStarts")), Reads.longs(r.get("coverChecksums")))
                            : null);
                });
        List<WindowCounts> windows = whole(stored.stream().map(CoveredWindow::window).toList());
        Map<String, List<CoveredWindow>> out = new HashMap<>();
        for (int i = 0; i < stored.size(); i++) {
            out.computeIfAbsent(windows.get(i).executionKey(), k -> new ArrayList<>())
                    .add(new CoveredWindow(windows.get(i), stored.get(i).coverage()));
        }
        return out;
    }

    /**
     * A fine window as a provisional sum's {@code sources} name it ({@link io.cctflow.graph.SourcesDigest}):
     * its execution, start and stored {@code checksum} (null for one written before checksums).
     */
    public record FineSource(String executionKey, long startMillis, Long checksum) {
    }

    /** The fine windows of every execution whose start lies in [fromStart, toStart), as {@link FineSource}s. */
    public List<FineSource> fineSourcesStartingIn(long fromStart, long toStart) {
        return reads.read("""
                MATCH (w:Window)
                WHERE w.resolution = $fine AND w.start >= $from AND w.start < $to AND w.members IS NULL
                RETURN w.instance AS instance, w.start AS start, w.checksum AS checksum
                """, Reads.params("fine", Resolution.FINE.property(), "from", fromStart, "to", toStart),
                r -> new FineSource(r.get("instance").asString(), r.get("start").asLong(),
                        r.get("checksum").isNull() ? null : r.get("checksum").asLong()));
    }

    /**
     * A stored provisional sum (a deployment's or an instance group's, {@link Keys#isInstanceGroup}):
     * its key, start, members and the {@code sources} of the fine windows it sums.
     */
    public record ProvisionalSum(String key, long startMillis, List<String> members, String sources) {
    }

    /** The provisional sums (those with {@code sources}) of one resolution whose start lies in [fromStart, toStart). */
    public List<ProvisionalSum> provisionalSumsStartingIn(Resolution resolution, long fromStart, long toStart) {
        return reads.read("""
                MATCH (w:Window)
                WHERE w.resolution = $resolution AND w.start >= $from AND w.start < $to AND w.sources IS NOT NULL
                RETURN w.instance AS instance, w.start AS start, w.members AS members, w.sources AS sources
                """, Reads.params("resolution", resolution.property(), "from", fromStart, "to", toStart),
                r -> new ProvisionalSum(r.get("instance").asString(), r.get("start").asLong(),
                        r.get("members").asList(Value::asString), r.get("sources").asString()));
    }

    /** Distinct starts of the windows of one resolution (every execution) with start in [from, to). */
    public List<Long> windowStarts(Resolution resolution, long fromStart, long toStart) {
        return reads.read("""
                MATCH (w:Window)
                WHERE w.resolution = $resolution AND w.start >= $from AND w.start < $to
                RETURN DISTINCT w.start AS start
                """, Reads.params("resolution", resolution.property(), "from", fromStart, "to", toStart),
                r -> r.get("start").asLong());
    }

    /**
     * Distinct starts of fine windows written (database clock) at or after {@code writtenSince}
     * whose start is before {@code toStart}: late windows whose roll-ups must be computed again.
     */
    public List<Long> fineStartsWrittenSince(long writtenSince, long toStart) {
        return reads.read("""
                MATCH (w:Window)
                WHERE w.resolution = $fine AND w.written >= $since AND w.start < $to
                RETURN DISTINCT w.start AS start
                """, Reads.params("fine", Resolution.FINE.property(), "since", writtenSince, "to", toStart),
                r -> r.get("start").asLong());
    }
}
