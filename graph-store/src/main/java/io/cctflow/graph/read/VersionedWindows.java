package io.cctflow.graph.read;

import io.cctflow.core.Hashing;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.FineWindowBound;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.Keys;
import io.cctflow.graph.StoreStamp;
import io.cctflow.model.DeploymentWindowVersion;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import io.cctflow.model.WindowSpan;
import io.cctflow.model.WindowVersion;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Value;

/**
 * The versioned reads behind a range plan ({@link RangePlanner}): which windows exist with their
 * write times, and their counts from the window cache ({@link WindowCache}) where it holds that
 * version.
 *
 * <p>Thread-safe as far as the {@link Driver} is.
 */
final class VersionedWindows {
    /**
     * Versions of the windows each of {@code $seeks} names (execution, resolution, start range, end
     * bound). collect() skips nulls, so every collected value is non-null (coalesce) to keep the
     * columns aligned.
     */
    static final String ROLLUP_VERSIONS = FineWindowBound.WITHIN_MINUTES + """
            CALL {
              UNWIND $seeks AS s
              MATCH (w:Window)
            """ + GraphSchema.SEEK_WINDOWS_BY_INSTANCE + """
              WHERE w.instance = s.key AND w.resolution = s.resolution AND w.start >= s.from AND w.start < s.to
                AND w.end <= s.endBy
              RETURN collect(w.instance) AS instance, collect(w.resolution) AS resolution,
                     collect(w.start) AS start, collect(w.end) AS end,
                     collect(coalesce(w.written, $noWritten)) AS written, collect(coalesce(w.members, [])) AS members,
                     collect(coalesce(w.sources, '')) AS sources
            }
            WITH fineWithinMinutes, instance, resolution, start, end, written, members, sources,
                 reduce(sets = [], m IN members | CASE WHEN m IN sets THEN sets ELSE sets + [m] END) AS memberSets
            RETURN timestamp() AS now, fineWithinMinutes, instance, resolution, start, end, written, sources,
                   memberSets,
                   [m IN members | [k IN range(0, size(memberSets) - 1) WHERE memberSets[k] = m][0]] AS memberSet
            """;

    /**
     * Versions of the fine windows of each execution of {@code $rows} that overlap its interval, as
     * one row of columns (a live read of 1,000 instances lists 3,000 windows: as rows 55-106 ms, as
     * columns 35-47 ms). collect() skips nulls, so every collected value is non-null (coalesce,
     * and a flag for a window written before checksums) to keep the columns aligned.
     */
    static final String FINE_VERSIONS = FineWindowBound.LOOKBACK + """
            UNWIND $rows AS g
            MATCH (w:Window)
            """ + GraphSchema.SEEK_WINDOWS_BY_INSTANCE + """
            WHERE w.instance = g.instance AND w.resolution = $fine AND w.start > g.from - longestFine
              AND w.start < g.to AND w.end > g.from
            WITH DISTINCT w
            RETURN collect(w.instance) AS instance, collect(w.start) AS start, collect(w.end) AS end,
                   collect(coalesce(w.written, $noWritten)) AS written, collect(coalesce(w.checksum, 0)) AS checksum,
                   collect(w.checksum IS NOT NULL) AS checked
            """;

    /** The FNV-1a start of the digest's second half ({@link #versionsDigest}), unlike the first's. */
    private static final long DIGEST_SEED = 0x6a09e667f3bcc909L;

    private final Reads reads;
    private final WindowCache windowCache;

    VersionedWindows(Reads reads, WindowCache windowCache) {
        this.reads = reads;
        this.windowCache = windowCache;
    }

    void clearCache() {
        windowCache.clear();
    }

    /**
     * What a range read's plan lists in one query ({@link #rollupVersions}): the database clock when
     * the query ran, and span, write time and (for deployments' roll-ups) members of the roll-ups.
     *
     * @param deploymentRollups roll-ups of whole deployments, members empty if a window has none
     * @param executionRollups roll-ups of single executions
     * @param sources of the deployments' roll-ups that are provisional sums (minutes not settled
     *     yet, {@link io.cctflow.graph.SourcesDigest}): their {@code sources}; settled ones are absent
     * @param fineWithinMinutes no fine window stored crosses a minute, as the store records it
     *     ({@link FineWindowBound}): none starts before a roll-up and reaches into it
     */
    record RollupVersions(long nowMillis, List<DeploymentWindowVersion> deploymentRollups,
            List<WindowVersion> executionRollups, Map<WindowVersion, String> sources, boolean fineWithinMinutes) {
        RollupVersions(long nowMillis, List<DeploymentWindowVersion> deploymentRollups,
                List<WindowVersion> executionRollups) {
            this(nowMillis, deploymentRollups, executionRollups, Map.of(), false);
        }
    }

    /**
     * One seek of {@link #rollupVersions}: the windows of {@code key} at {@code resolution} that
     * start in [fromMillis, toMillis) and end at {@code endByMillis} or before.
     */
    record Seek(String key, Resolution resolution, long fromMillis, long toMillis, long endByMillis) {
    }

    /**
     * Span and write time (no counts) of the roll-ups each seek finds,
     * with members for the keys of whole deployments ({@code deploymentKeys}, {@link
     * Keys#deploymentRollup}), and the database clock ({@link #databaseTimeMillis}) taken by the
     * same query. One query returning one row of columns: a plan used to list them in one query per
     * resolution and kind plus one for the clock, and on this machine each round trip cost more
     * than the rows it returned.
     */
    RollupVersions rollupVersions(Collection<Seek> seeks, Collection<String> deploymentKeys) {
        List<Map<String, Object>> rows = new ArrayList<>(seeks.size());
        for (Seek seek : seeks) {
            rows.add(Map.of("key", seek.key(), "resolution", seek.resolution().property(), "from", seek.fromMillis(),
                    "to", seek.toMillis(), "endBy", seek.endByMillis()));
        }
        Set<String> deployments = new HashSet<>(deploymentKeys);
        return reads.read(ROLLUP_VERSIONS, Reads.params("seeks", rows, "noWritten", Long.MAX_VALUE), r -> {
                    Value instance = r.get("instance");
                    Value resolution = r.get("resolution");
                    Value start = r.get("start");
                    Value end = r.get("end");
                    Value written = r.get("written");
                    Value sources = r.get("sources");
                    // each distinct member list once (every roll-up of a deployment has the same
                    // members, mostly): 34 roll-ups of 1,000 instances send 1,000 keys, not 34,000
                    List<List<String>> memberSets = r.get("memberSets")
                            .asList(v -> List.copyOf(v.asList(Value::asString)));
                    Value memberSet = r.get("memberSet");
                    List<DeploymentWindowVersion> ofDeployments = new ArrayList<>();
                    List<WindowVersion> ofExecutions = new ArrayList<>();
                    Map<WindowVersion, String> provisional = new HashMap<>();
                    for (int i = 0; i < instance.size(); i++) {
                        String key = instance.get(i).asString();
                        WindowVersion v = new WindowVersion(new WindowSpan(key,
                                Resolution.ofProperty(resolution.get(i).asString()),
                                start.get(i).asLong(), end.get(i).asLong()), written.get(i).asLong());
                        if (deployments.contains(key)) {
                            ofDeployments.add(new DeploymentWindowVersion(v, memberSets.get(memberSet.get(i).asInt())));
                            if (!sources.get(i).asString().isEmpty()) {
                                provisional.put(v, sources.get(i).asString());
                            }
                        } else {
                            ofExecutions.add(v);
                        }
                    }
                    return new RollupVersions(r.get("now").asLong(), ofDeployments, ofExecutions, provisional,
                            r.get("fineWithinMinutes").asBoolean());
                }).get(0);
    }

    /**
     * Span and write time of the fine windows that start before an interval's end and end after its
     * start, for any of the intervals (each window once): those overlapping it, or for an interval
     * that ends where it starts or earlier, those that start before its end and reach past its start.
     * Only those starting less than the longest fine window stored ({@link FineWindowBound}, read by
     * the same query) before an interval are looked at: without the bound the index seek on {@code
     * start} would walk every earlier window of the execution (a week of them for the end of a
     * range), and with a fixed bound of an hour it walked 60 one-minute windows per execution and
     * interval start, to find at most one. Each with its {@code checksum} (null for a window
     * written before checksums), which provisional sums are checked against ({@link
     * io.cctflow.graph.SourcesDigest}).
     */
    List<ListedFine> fineWindowVersionsIn(Collection<WindowSpan> intervals) {
        List<Map<String, Object>> rows = intervals.stream().map(i -> Map.<String, Object>of(
                "instance", i.executionKey(), "from", i.startMillis(), "to", i.endMillis())).toList();
        return reads.read(FINE_VERSIONS, Reads.params("rows", rows, "fine", Resolution.FINE.property(),
                "noWritten", Long.MAX_VALUE), r -> {
                    Value instance = r.get("instance");
                    Value start = r.get("start");
                    Value end = r.get("end");
                    Value written = r.get("written");
                    Value checksum = r.get("checksum");
                    Value checked = r.get("checked");
                    List<ListedFine> listed = new ArrayList<>(instance.size());
                    for (int i = 0; i < instance.size(); i++) {
                        listed.add(new ListedFine(new WindowVersion(new WindowSpan(instance.get(i).asString(),
                                Resolution.FINE, start.get(i).asLong(), end.get(i).asLong()), written.get(i).asLong()),
                                checked.get(i).asBoolean() ? checksum.get(i).asLong() : null));
                    }
                    return listed;
                }).get(0);
    }

    /** A fine window listed by {@link #fineWindowVersionsIn}: its version and stored checksum (null: none). */
    record ListedFine(WindowVersion version, Long checksum) {
    }

    /**
     * The counts of these versions of windows ({@link #windowVersions}), from the window cache
     * where it holds them; the others are read and, once settled at {@code planNowMillis} (the
     * database clock when the versions were listed), kept in it ({@link WindowCache}). A window
     * no longer stored is left out; one rewritten since it was listed is read as it is now, except
     * a roll-up of a whole deployment, whose members may have changed with it.
     *
     * @throws StaleReadPlanException if a deployment's roll-up was rewritten since it was listed
     */
    List<WindowCounts> windows(List<WindowVersion> versions, long planNowMillis) {
        return windows(versions, planNowMillis, true);
    }

    /**
     * {@link #windows(List, long)}; with {@code keep} false the windows read are not kept in the
     * cache (their group's sum will be, {@link #keepSum}).
     */
    List<WindowCounts> windows(List<WindowVersion> versions, long planNowMillis, boolean keep) {
        return read(versions, planNowMillis, keep).windows();
    }

    /**
     * Windows read for a plan, and whether each was read in the version the plan listed: false
     * when one was rewritten (or deleted) between the plan and the read, so the counts are not
     * those of the listed versions and must not be kept under their names.
     */
    record Read(List<WindowCounts> windows, boolean asListed) {
    }

    /** {@link #windows(List, long, boolean)}, saying whether every window came in its listed version. */
    Read read(List<WindowVersion> versions, long planNowMillis, boolean keep) {
        List<WindowCounts> out = new ArrayList<>(versions.size());
        Map<String, WindowVersion> missing = new HashMap<>();
        for (WindowVersion v : versions) {
            String key = key(v.span());
            WindowCounts cached = windowCache.get(key, v.writtenMillis());
            if (cached != null) {
                out.add(cached);
            } else {
                missing.put(key, v);
            }
        }
        int asListed = versions.size() - missing.size();
        if (!missing.isEmpty()) {
            List<Map<String, Object>> identities = new ArrayList<>(missing.size());
            for (WindowVersion v : missing.values()) {
                identities.add(Keys.windowIdentity(v.span().executionKey(), v.span().resolution(), v.span().startMillis()));
            }
            for (Fetched f : WindowRows.read(reads, FETCH, Reads.params("windows", identities),
                    this::toFetched)) {
                long planned = missing.get(f.key()).writtenMillis();
                if (f.deployment() && f.writtenMillis() != planned) {
                    // its members may differ from those the plan covered with it
                    throw new StaleReadPlanException(f.key(), planned, f.writtenMillis());
                }
                if (f.writtenMillis() == planned) {
                    asListed++;
                }
                out.add(f.counts());
                if (keep) {
                    windowCache.put(f.key(), f.writtenMillis(), planNowMillis, f.counts());
                }
            }
        }
        return new Read(out, asListed == versions.size());
    }

    /** A window read by key: its version, and whether it is a roll-up of a whole deployment. */
    private record Fetched(String key, long writtenMillis, boolean deployment, WindowCounts counts) {
    }

    /**
     * The windows of a plan by identity: {@link WindowRows#COUNT_COLUMNS} and whether each is a
     * deployment's roll-up, as a flag rather than its member list (1,000 keys for a roll-up of
     * 1,000 instances, which the plan listed already: a 3 h read of such a fleet fetched 34,000
     * strings it did not use).
     */
    private static final String FETCH = Keys.MATCH_WINDOWS + WindowRows.COUNT_COLUMNS
            + ", w.members IS NOT NULL AS deployment";

    private Fetched toFetched(Record r) {
        return new Fetched(WindowRows.key(r), r.get("written").asLong(Long.MAX_VALUE),
                r.get("deployment").asBoolean(), WindowRows.toWindow(r, reads.numbering()));
    }

    /**
     * The sum of a group of window versions (the windows of one time slot of several executions)
     * if the window cache keeps it ({@link #keepSum}); else null.
     */
    TreeCounts cachedSum(List<WindowVersion> group) {
        return windowCache.getSum(sumKey(group));
    }

    /** Keeps {@code sum}, the counts of {@code group} summed, once all of its versions were settled at {@code planNowMillis}. */
    void keepSum(List<WindowVersion> group, long planNowMillis, TreeCounts sum) {
        long latest = Long.MIN_VALUE;
        for (WindowVersion v : group) {
            latest = Math.max(latest, v.writtenMillis());
        }
        windowCache.putSum(sumKey(group), latest, planNowMillis, sum);
    }

    /** A name of the group that lists every member's key and written, in key order. */
    private static String sumKey(List<WindowVersion> group) {
        return "sum\n" + versionsKey(group);
    }

    /**
     * One name of a set of window versions: every member's key and written, sorted, so two lists
     * of the same versions in any order have the same name, and a rewritten member another one.
     */
    static String versionsKey(List<WindowVersion> versions) {
        List<String> members = new ArrayList<>(versions.size());
        for (WindowVersion v : versions) {
            members.add(key(v.span()) + '@' + v.writtenMillis());
        }
        Collections.sort(members);
        return String.join("\n", members);
    }

    /**
     * A fixed-size name (128 bits, 32 hex digits) of a set of window versions: each member's key
     * and written hashed on its own, the members' hashes summed in two independent 64-bit halves,
     * so the order of the list does not matter and no string of all members is built (a day of
     * 1,000 instances lists about 24,000). Equal sets have equal digests; a member added, removed
     * or rewritten changes it (up to a 2^-128 chance of two sets sharing one).
     */
    static String versionsDigest(List<WindowVersion> versions) {
        long hi = versions.size(), lo = Hashing.fmix64(versions.size());
        for (WindowVersion v : versions) {
            WindowSpan s = v.span();
            long a = Hashing.fnv1a(Hashing.fnv1aStart(), s.executionKey());
            long b = Hashing.fnv1a(DIGEST_SEED, s.executionKey());
            a = Hashing.fnv1a(a, s.resolution().ordinal());
            b = Hashing.fnv1a(b, s.resolution().ordinal());
            hi += member(a, s.startMillis(), v.writtenMillis());
            lo += member(b ^ 0x9e3779b97f4a7c15L, Long.rotateLeft(s.startMillis(), 29), Long.rotateLeft(v.writtenMillis(), 41));
        }
        return String.format("%016x%016x", hi, lo);
    }

    private static long member(long keyHash, long start, long written) {
        long h = Hashing.fmix64(keyHash ^ Hashing.fmix64(start));
        return Hashing.fmix64(h ^ Hashing.fmix64(written + 0xc2b2ae3d27d4eb4fL));
    }

    /** Whether every version was settled at {@code planNowMillis} ({@link WindowCache#isSettled}). */
    boolean isSettled(List<WindowVersion> versions, long planNowMillis) {
        for (WindowVersion v : versions) {
            if (!windowCache.isSettled(v.writtenMillis(), planNowMillis)) {
                return false;
            }
        }
        return true;
    }

    private static String key(WindowSpan s) {
        return Keys.window(s.executionKey(), s.resolution(), s.startMillis());
    }

    /** The store's window version now ({@link StoreStamp#WINDOWS}), null when none was set yet. */
    String windowStamp() {
        return reads.stamp(StoreStamp.WINDOWS);
    }

    /** The database's clock (epoch millis), the clock of {@code written} on windows. */
    long databaseTimeMillis() {
        return reads.read("RETURN timestamp() AS t", Map.of(), r -> r.get("t").asLong()).get(0);
    }
}
