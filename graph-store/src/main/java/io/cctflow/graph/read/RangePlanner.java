package io.cctflow.graph.read;

import io.cctflow.core.collect.WeighedLru;
import io.cctflow.graph.Keys;
import io.cctflow.graph.SourcesDigest;
import io.cctflow.graph.StoreStamp;
import io.cctflow.model.Resolution;
import io.cctflow.core.TreeCounts;
import io.cctflow.model.DeploymentWindowVersion;
import io.cctflow.model.WindowCounts;
import io.cctflow.model.WindowSpan;
import io.cctflow.model.WindowVersion;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads the counts of a time range with as few rows as the stored roll-ups allow: the daily
 * windows that lie inside [from, to), then the hourly ones that nothing covers yet, then the
 * ten-minute ones, then the minute ones at the edges, then the fine windows for the rest (the
 * edges, and hours not rolled up yet). At each resolution the roll-up of a whole deployment comes
 * first, used when the selection holds every execution it sums (its members); then each
 * execution's own roll-up (daily and hourly; ten-minute and minute roll-ups exist for deployments
 * only). The sum
 * of what it returns equals the sum of the fine windows overlapping [from, to), as long as the
 * roll-ups are up to date ({@link Rollups} only rolls up settled hours, and of the hour not settled
 * yet the deployments' ten-minute and minute sums of its settled ten-minute slots, and minute sums
 * of the settled minutes of the slots not settled yet). A provisional minute sum (a minute ended
 * but not settled, with the {@code sources} of what it sums, {@link SourcesDigest}) is used only
 * where the fine windows listed under it for its members are those it sums; else they are read.
 * The plan lists the windows
 * with their write times, so the reader's window cache ({@link WindowCache})
 * serves the versions it holds and only the others are fetched.
 *
 * <p>Made by a {@link WindowReader} ({@link WindowReader#plan}); thread-safe as far as its driver is.
 */
public final class RangePlanner {
    /** Plans of one read, when deployments' roll-ups keep changing under it, before giving up. */
    static final int PLAN_ATTEMPTS = 5;

    /**
     * Most execution keys (summed over entries) of the plans whose versions are remembered
     * ({@link #versions}): about 100 bytes each, so at most ~10 MB of heap.
     */
    static final long REMEMBERED_KEYS = 100_000;

    private final VersionedWindows reader;
    private final UnaryOperator<List<TreeCounts>> whole;
    /** Per request (executions, range): the store's window stamp and the settled versions listed under it. */
    private final WeighedLru<Request, Stamped> remembered = new WeighedLru<>(REMEMBERED_KEYS);

    private record Stamped(String stamp, String settledVersions) {
    }

    /** What a plan was made for, to plan it again. */
    private record Request(List<String> executionKeys, long fromMillis, long toMillis, int groups, int attempt) {
    }

    /** @param whole what makes stored (projected) counts whole ({@link CountsExpansion}), or leaves them */
    RangePlanner(VersionedWindows reader, UnaryOperator<List<TreeCounts>> whole) {
        this.reader = reader;
        this.whole = whole;
    }

    /**
     * Summed counts of a plan's windows, and the name of the versions they were summed from ({@link
     * Plan#settledVersions}), null when unsettled or read in other versions than listed.
     */
    public record Summed(TreeCounts counts, String settledVersions) {
    }

    /** Which windows a range read will fetch; {@link #windowCount()} before paying for the counts. */
    public final class Plan {
        private final List<WindowVersion> rollups;
        private final List<WindowVersion> fine;
        private final long nowMillis;
        private final Request request;

        private Plan(List<WindowVersion> rollups, List<WindowVersion> fine, long nowMillis, Request request) {
            this.rollups = rollups;
            this.fine = fine;
            this.nowMillis = nowMillis;
            this.request = request;
        }

        /** Roll-up windows to read. */
        public List<WindowSpan> rollups() {
            return rollups.stream().map(WindowVersion::span).toList();
        }

        /** Rows the read will fetch (from Neo4j or the reader's window cache): roll-ups plus fine windows. */
        public long windowCount() {
            return rollups.size() + fine.size();
        }

        /** The windows: roll-ups and fine windows, none counted twice. */
        public List<WindowCounts> read() {
            try {
                return WindowReader.withCounts(reader.windows(all(), nowMillis), whole);
            } catch (StaleReadPlanException e) {
                return replan(e).read();
            }
        }

        /** Executions (and deployments, for their roll-ups) whose windows the plan reads. */
        public int executions() {
            Set<String> keys = new HashSet<>();
            for (WindowVersion v : all()) {
                keys.add(v.span().executionKey());
            }
            return keys.size();
        }

        /**
         * The windows of {@link #read()} summed per execution key, one per key in key order (from
         * its first window's start to its last one's end), each made whole once: what replicates by
         * execution need (counts and method samples add up across windows, so each equals the sum
         * of that execution's whole windows), at one expansion per execution instead of one per
         * window (a side of 500 instances over an hour reads thousands of windows).
         */
        public List<WindowCounts> readSummedByExecution() {
            return readSummedBy(UnaryOperator.identity());
        }

        /**
         * {@link #readSummedByExecution()} with the windows summed per instance group instead
         * ({@link Keys#instanceGroup}): a group's roll-ups as they are, an execution's windows under
         * its group's key. For a plan of instance groups ({@link RangePlanner#planByGroups}), what
         * replicates by instance group need, wherever the range was read from.
         *
         * @throws IllegalStateException if the plan was not made by groups
         */
        public List<WindowCounts> readSummedByGroup() {
            if (request.groups() == 0) {
                throw new IllegalStateException("not a plan by instance groups");
            }
            return readSummedBy(key -> Keys.instanceGroup(key, request.groups()));
        }

        private List<WindowCounts> readSummedBy(UnaryOperator<String> unit) {
            try {
                Map<String, List<WindowCounts>> byKey = new TreeMap<>();
                for (WindowCounts w : reader.windows(all(), nowMillis)) {
                    byKey.computeIfAbsent(unit.apply(w.executionKey()), k -> new ArrayList<>()).add(w);
                }
                List<WindowCounts> sums = new ArrayList<>(byKey.size());
                byKey.forEach((key, windows) -> sums.add(new WindowCounts(key,
                        windows.stream().mapToLong(WindowCounts::windowStartMillis).min().orElseThrow(),
                        windows.stream().mapToLong(WindowCounts::windowEndMillis).max().orElseThrow(),
                        WindowReader.sum(windows))));
                return WindowReader.withCounts(sums, whole);
            } catch (StaleReadPlanException e) {
                return replan(e).readSummedBy(unit);
            }
        }

        /** Whether the plan reads a roll-up of an instance group (of two executions or more). */
        public boolean readsInstanceGroups() {
            return rollups.stream().anyMatch(v -> Keys.isInstanceGroup(v.span().executionKey()));
        }

        /** A new plan of the same request, after a deployment's roll-up changed under this one. */
        private Plan replan(StaleReadPlanException cause) {
            if (request.attempt() >= PLAN_ATTEMPTS) {
                throw new IllegalStateException(cause.getMessage() + ", " + request.attempt() + " plans in a row", cause);
            }
            return plan(request.executionKeys(), request.fromMillis(), request.toMillis(), request.groups(),
                    request.attempt() + 1);
        }

        /**
         * The summed counts of {@link #read()}, equal to {@code WindowReader.sum(read())}. The windows
         * of one time slot (one per execution) are summed as a group, and the reader's window cache
         * keeps settled groups' sums (not their windows), so a later read over the same executions
         * and slots (another method over an overlapping range) sums one row set per slot instead of
         * one per execution; only the windows of the groups it does not hold are fetched.
         */
        public TreeCounts sum() {
            return summed().counts();
        }

        /**
         * The windows this plan reads, each named by its key and {@code written} ({@link
         * WindowVersion}), as one fixed-size digest of them all ({@link
         * VersionedWindows#versionsDigest}, 32 hex digits whatever the number of windows), when
         * every one of them was settled at the plan's database time ({@link WindowCache}); null
         * when one was not (written within the settle time, or never). Two plans with the same
         * name read the same counts, whatever selection and range they were made for: a new window
         * in the range, or a rewritten one, changes the name. What a cache of answers computed
         * from {@link #sum()} is keyed by.
         */
        public String settledVersions() {
            List<WindowVersion> all = all();
            return reader.isSettled(all, nowMillis) ? VersionedWindows.versionsDigest(all) : null;
        }

        /**
         * {@link #sum()} with the {@link #settledVersions()} of what it summed: of the plan that
         * summed it (another one than this when a deployment's roll-up changed under it), null
         * when a window was read in another version than the plan listed (rewritten meanwhile).
         */
        public Summed summed() {
            try {
                return sumOnce();
            } catch (StaleReadPlanException e) {
                return replan(e).summed();
            }
        }

        private Summed sumOnce() {
            Map<List<Long>, List<WindowVersion>> slots = new LinkedHashMap<>();
            for (WindowVersion v : all()) {
                slots.computeIfAbsent(List.of(v.span().startMillis(), v.span().endMillis()), k -> new ArrayList<>())
                        .add(v);
            }
            List<TreeCounts> parts = new ArrayList<>(slots.size());
            List<WindowVersion> toRead = new ArrayList<>();
            Map<List<Long>, List<WindowVersion>> missing = new LinkedHashMap<>();
            for (Map.Entry<List<Long>, List<WindowVersion>> slot : slots.entrySet()) {
                TreeCounts cached = reader.cachedSum(slot.getValue());
                if (cached != null) {
                    parts.add(cached);
                } else {
                    missing.put(slot.getKey(), slot.getValue());
                    toRead.addAll(slot.getValue());
                }
            }
            Map<List<Long>, List<TreeCounts>> read = new HashMap<>();
            // the groups' sums are kept, not their windows: a day of ten instances is ~1 M rows so, ~7 M as windows
            VersionedWindows.Read fetched = reader.read(toRead, nowMillis, false);
            for (WindowCounts w : fetched.windows()) {
                read.computeIfAbsent(List.of(w.windowStartMillis(), w.windowEndMillis()), k -> new ArrayList<>())
                        .add(w.counts());
            }
            missing.forEach((slot, group) -> {
                TreeCounts sum = TreeCounts.sum(read.getOrDefault(slot, List.of()));
                parts.add(sum);
                if (fetched.asListed()) { // every window in its listed version: none deleted or rewritten meanwhile
                    reader.keepSum(group, nowMillis, sum);
                }
            });
            // the windows and the cached sums are projections: made whole once, after summing
            return new Summed(whole.apply(List.of(TreeCounts.sum(parts))).get(0),
                    fetched.asListed() ? settledVersions() : null);
        }

        private List<WindowVersion> all() {
            List<WindowVersion> all = new ArrayList<>(rollups.size() + fine.size());
            all.addAll(rollups);
            all.addAll(fine);
            return all;
        }
    }

    /**
     * The settled versions ({@link Plan#settledVersions}) of the plan of [fromMillis, toMillis) for
     * the executions, and the plan when one was made. A repeated request finds them in one round
     * trip: the store's window stamp ({@link StoreStamp#WINDOWS}), read before the plan listed its
     * windows, is remembered with them, and while it has not changed no window was written,
     * rewritten or deleted since, so the listing would give the same versions; the plan's two
     * listing queries are then skipped ({@code plan} null). Only settled versions are remembered
     * (a window settled stays settled), at most {@link #REMEMBERED_KEYS} execution keys of them,
     * least recently used dropped first.
     */
    public Versions versions(Collection<String> executionKeys, long fromMillis, long toMillis) {
        Request request = new Request(List.copyOf(executionKeys), fromMillis, toMillis, 0, 1);
        String stamp = reader.windowStamp();
        Stamped known;
        synchronized (remembered) {
            known = remembered.get(request);
        }
        if (stamp != null && known != null && known.stamp().equals(stamp)) {
            return new Versions(known.settledVersions(), null);
        }
        Plan plan = plan(executionKeys, fromMillis, toMillis);
        String versions = plan.settledVersions();
        if (stamp != null && versions != null) {
            synchronized (remembered) {
                remembered.put(request, new Stamped(stamp, versions), request.executionKeys().size() + 1L);
            }
        }
        return new Versions(versions, plan);
    }

    /**
     * What {@link #versions} found: the settled versions (null when a window is unsettled) and the
     * plan that listed them, null when they were remembered (make one with {@link #plan} to read).
     */
    public record Versions(String settledVersions, Plan plan) {
    }

    /**
     * Plans the read of [fromMillis, toMillis) for the executions: two cheap queries that list the
     * windows (span and write time) without their counts, one for the roll-ups of every resolution
     * with the database clock ({@link VersionedWindows#rollupVersions}), one for the fine windows of
     * what they leave uncovered. A roll-up of a whole deployment is used
     * when the selection holds every execution it sums (its members) and none of them is covered
     * there yet; an execution's own roll-up where nothing covers the execution yet.
     */
    Plan plan(Collection<String> executionKeys, long fromMillis, long toMillis) {
        return plan(executionKeys, fromMillis, toMillis, 0, 1);
    }

    /**
     * {@link #plan(Collection, long, long)} with the roll-ups of the executions' instance groups
     * ({@link Keys#instanceGroup} of {@code groups}) where it would use those of whole deployments:
     * the same counts ({@code Rollups} writes both in one pass), in one row per group instead of
     * one per deployment, so that {@link Plan#readSummedByGroup} can sum the range per group. A
     * group's roll-up is used when the selection holds all its members, as a deployment's is; an
     * execution whose group has no roll-up there (a group of one) is read from its own windows.
     */
    Plan planByGroups(Collection<String> executionKeys, long fromMillis, long toMillis, int groups) {
        return plan(executionKeys, fromMillis, toMillis, Keys.checkInstanceGroups(groups), 1);
    }

    /** @param groups instance groups whose roll-ups replace the deployments', 0 for the deployments' */
    private Plan plan(Collection<String> executionKeys, long fromMillis, long toMillis, int groups, int attempt) {
        Set<String> selected = new HashSet<>(executionKeys);
        Set<String> deployments = new TreeSet<>();
        for (String key : executionKeys) {
            deployments.add(groups > 0 ? Keys.instanceGroup(key, groups) : Keys.deploymentRollup(key));
        }
        // coarsest first; at each resolution whole deployments before single executions
        List<Resolution> resolutions = new ArrayList<>();
        for (Resolution r : new Resolution[] {Resolution.DAY, Resolution.HOUR, Resolution.TEN_MINUTES,
                Resolution.MINUTE}) {
            if (r == Resolution.MINUTE ? fromMillis < toMillis : fits(r, fromMillis, toMillis)) {
                resolutions.add(r);
            }
        }
        // the deployments' roll-ups first; then the executions' own roll-ups, of those executions
        // only that the deployments' roll-ups do not cover (a whole deployment of 1,000 instances
        // over 24 h would otherwise list 23,000 instance hours it never reads)
        List<VersionedWindows.Seek> seeks = new ArrayList<>();
        for (Resolution r : resolutions) {
            for (VersionedWindows.Seek interval : deploymentSeeks(r, fromMillis, toMillis)) {
                for (String key : deployments) {
                    seeks.add(new VersionedWindows.Seek(key, r, interval.fromMillis(), interval.toMillis(),
                            interval.endByMillis()));
                }
            }
        }
        VersionedWindows.RollupVersions listed = seeks.isEmpty()
                ? new VersionedWindows.RollupVersions(reader.databaseTimeMillis(), List.of(), List.of())
                : reader.rollupVersions(seeks, deployments);
        Chosen byDeployments = choose(resolutions, listed.deploymentRollups(), List.of(), selected);
        // an execution's own roll-ups are looked for only in the parts of the range the deployments'
        // leave uncovered and that can hold one: at a live edge (the last minutes, not rolled up
        // yet) none, where seeking each execution over the whole range listed every instance hour
        // of the range, to use none of them (1,000 instances over 7 days: 175,000 rows)
        List<VersionedWindows.Seek> ofExecutions = new ArrayList<>();
        for (String key : executionKeys) {
            for (long[] gap : uncovered(byDeployments.covered().get(key), fromMillis, toMillis)) {
                for (Resolution r : resolutions) {
                    // the others are stored for deployments only
                    if ((r == Resolution.DAY || r == Resolution.HOUR) && fits(r, gap[0], gap[1])) {
                        ofExecutions.add(new VersionedWindows.Seek(key, r, gap[0], gap[1], gap[1]));
                    }
                }
            }
        }
        VersionedWindows.RollupVersions listedOfExecutions = ofExecutions.isEmpty() ? null
                : reader.rollupVersions(ofExecutions, List.of());
        List<WindowVersion> executionRollups = listedOfExecutions == null ? List.of()
                : listedOfExecutions.executionRollups();
        boolean withinMinutes = listedOfExecutions == null ? listed.fineWithinMinutes()
                : listedOfExecutions.fineWithinMinutes();
        long now = listed.nowMillis();
        Chosen chosen = executionRollups.isEmpty() ? byDeployments
                : choose(resolutions, listed.deploymentRollups(), executionRollups, selected);
        // provisional sums (minutes not settled yet) cover nothing until the fine windows listed
        // under them prove to be those they sum: their spans are listed as gaps first
        Map<WindowVersion, List<String>> provisional = provisional(chosen.rollups(), listed);
        Map<String, List<WindowSpan>> covered = chosen.covered();
        for (Map.Entry<WindowVersion, List<String>> p : provisional.entrySet()) {
            for (String m : p.getValue()) {
                covered.get(m).remove(memberSpan(p.getKey(), m));
            }
        }
        List<WindowVersion> rollups = new ArrayList<>(chosen.rollups());
        List<WindowSpan> gaps = gaps(executionKeys, covered, fromMillis, toMillis, withinMinutes);
        List<VersionedWindows.ListedFine> listedFine = gaps.isEmpty() ? List.of() : reader.fineWindowVersionsIn(gaps);
        if (!provisional.isEmpty()) {
            Map<String, List<VersionedWindows.ListedFine>> byExecution = new HashMap<>();
            for (VersionedWindows.ListedFine f : listedFine) {
                byExecution.computeIfAbsent(f.version().span().executionKey(), k -> new ArrayList<>()).add(f);
            }
            provisional.forEach((sum, members) -> {
                if (sumsExactly(sum, members, listed.sources().get(sum), byExecution)) {
                    for (String m : members) {
                        covered.get(m).add(memberSpan(sum, m));
                    }
                } else {
                    rollups.remove(sum);
                }
            });
        }
        List<WindowVersion> fine = new ArrayList<>();
        for (VersionedWindows.ListedFine f : listedFine) {
            WindowVersion v = f.version();
            if (!isCovered(covered, v.span().executionKey(), v.span().startMillis())) {
                fine.add(v);
            }
        }
        return new Plan(rollups, fine, now,
                new Request(List.copyOf(executionKeys), fromMillis, toMillis, groups, attempt));
    }

    /**
     * Per execution, the intervals of [fromMillis, toMillis) to read from fine windows, given what is
     * covered ({@link VersionedWindows#fineWindowVersionsIn}).
     *
     * @param withinMinutes no fine window stored crosses a minute ({@link io.cctflow.graph.FineWindowBound})
     */
    private static List<WindowSpan> gaps(Collection<String> executionKeys, Map<String, List<WindowSpan>> covered,
            long fromMillis, long toMillis, boolean withinMinutes) {
        List<WindowSpan> gaps = new ArrayList<>();
        for (String key : executionKeys) {
            List<WindowSpan> mine = covered.getOrDefault(key, List.of());
            // a fine window that starts before the roll-up covering the range's start but reaches
            // into the range (the job's window need not divide an hour) still counts, as in a
            // fine-only read: listed as those starting before the roll-up and ending after the
            // range's start (an interval that ends where it starts or earlier), so the windows the
            // roll-up holds are not listed too; none to look for when no fine window crosses a
            // minute, as every roll-up starts on one (a seek per execution: 1,000 for a fleet read)
            if (!withinMinutes) {
                mine.stream().filter(s -> s.startMillis() <= fromMillis && fromMillis < s.endMillis())
                        .mapToLong(WindowSpan::startMillis).min()
                        .ifPresent(coverStart -> gaps.add(
                                new WindowSpan(key, Resolution.FINE, fromMillis, coverStart)));
            }
            for (long[] gap : uncovered(mine, fromMillis, toMillis)) {
                gaps.add(new WindowSpan(key, Resolution.FINE, gap[0], gap[1]));
            }
        }
        return gaps;
    }

    /** The chosen roll-ups that are provisional sums ({@link VersionedWindows.RollupVersions#sources}), with their members. */
    private static Map<WindowVersion, List<String>> provisional(List<WindowVersion> chosen,
            VersionedWindows.RollupVersions listed) {
        if (listed.sources().isEmpty()) {
            return Map.of();
        }
        Map<WindowVersion, List<String>> members = new HashMap<>();
        for (DeploymentWindowVersion d : listed.deploymentRollups()) {
            members.put(d.version(), d.members());
        }
        Map<WindowVersion, List<String>> out = new LinkedHashMap<>();
        for (WindowVersion v : chosen) {
            if (listed.sources().containsKey(v)) {
                out.put(v, members.get(v));
            }
        }
        return out;
    }

    /** The span a deployment's roll-up covers for one of its members ({@link #choose}). */
    private static WindowSpan memberSpan(WindowVersion rollup, String member) {
        WindowSpan s = rollup.span();
        return new WindowSpan(member, s.resolution(), s.startMillis(), s.endMillis());
    }

    /**
     * Whether a provisional sum sums exactly the fine windows listed for its members that start in
     * its span, in the versions listed: its {@code sources} equal their digest. Every one of them
     * that a fine-only read of the range counts was listed (the sum's span was a gap), so when they
     * are equal the sum is what those windows add up to; a window rewritten, added or gone since
     * the pass summed it (or written before checksums) makes them differ, and the fine windows are read.
     */
    private static boolean sumsExactly(WindowVersion sum, List<String> members, String sources,
            Map<String, List<VersionedWindows.ListedFine>> byExecution) {
        SourcesDigest digest = new SourcesDigest();
        long start = sum.span().startMillis();
        long end = sum.span().endMillis();
        for (String m : members) {
            for (VersionedWindows.ListedFine f : byExecution.getOrDefault(m, List.of())) {
                long at = f.version().span().startMillis();
                if (at >= start && at < end) {
                    if (f.checksum() == null) {
                        return false;
                    }
                    digest.add(m, at, f.checksum());
                }
            }
        }
        return digest.value().equals(sources);
    }

    /**
     * Where a deployment's roll-ups of {@code r} are looked for (key left out): inside the range,
     * except minute windows. Those are looked for only in the range's edges that no ten-minute
     * window fits in, and in the two whole ten-minute slots before the end's (a range ending now:
     * the pass sums the minutes of a slot as they settle, before the slot settles, {@code Rollups};
     * at the default {@code rollup.settle}, 10 min, the slot before the end's is never settled, and
     * the one before that only from the first pass after the end's slot began); elsewhere
     * they are written with their ten-minute windows, so they would not be used, and a day of a
     * deployment's minutes with their members is a long listing. They include the minutes the
     * range starts or ends inside: a deployment's minute
     * window sums only fine windows that start at its start and last a minute or more (the pass
     * writes no other, {@code SlotSums}), and each of those overlaps every range that overlaps the
     * minute, so a fine-only read would count them all too.
     */
    private static List<VersionedWindows.Seek> deploymentSeeks(Resolution r, long fromMillis, long toMillis) {
        if (r != Resolution.MINUTE) {
            return List.of(new VersionedWindows.Seek(null, r, fromMillis, toMillis, toMillis));
        }
        long minute = Resolution.MINUTE.millis();
        long tens = Resolution.TEN_MINUTES.millis();
        // no overflow at Long.MIN_VALUE and Long.MAX_VALUE ("all time")
        long from = fromMillis > Long.MIN_VALUE + tens ? Resolution.MINUTE.floor(fromMillis) : fromMillis;
        long to = toMillis < Long.MAX_VALUE - tens ? Resolution.MINUTE.ceil(toMillis) : toMillis;
        if (!fits(Resolution.TEN_MINUTES, fromMillis, toMillis) || to - from < 2 * minute) {
            return List.of(new VersionedWindows.Seek(null, r, from, to, to));
        }
        long headEnd = fromMillis > Long.MIN_VALUE + tens ? Math.min(to, Resolution.TEN_MINUTES.ceil(fromMillis)) : from;
        // the end's slot and the two before it: at most 30 minutes, listed whether used or not
        long tailStart = Math.max(headEnd, toMillis > Long.MIN_VALUE + 4 * tens
                ? Resolution.TEN_MINUTES.floor(toMillis) - 2 * tens : from);
        List<VersionedWindows.Seek> edges = new ArrayList<>(2);
        if (headEnd > from) {
            edges.add(new VersionedWindows.Seek(null, r, from, headEnd, to));
        }
        if (to > tailStart) {
            edges.add(new VersionedWindows.Seek(null, r, tailStart, to, to));
        }
        return edges;
    }

    /** Roll-ups a plan reads, and per execution the spans they cover. */
    private record Chosen(Map<String, List<WindowSpan>> covered, List<WindowVersion> rollups) {
    }

    /**
     * The roll-ups to read, coarsest first, at each resolution whole deployments before single
     * executions: a deployment's when the selection holds all its members and none of them is
     * covered there yet, an execution's where nothing covers it yet.
     */
    private static Chosen choose(List<Resolution> resolutions, List<DeploymentWindowVersion> ofDeployments,
            List<WindowVersion> ofExecutions, Set<String> selected) {
        Map<String, List<WindowSpan>> covered = new HashMap<>();
        List<WindowVersion> rollups = new ArrayList<>();
        for (Resolution r : resolutions) {
            for (DeploymentWindowVersion d : ofDeployments) {
                WindowSpan s = d.version().span();
                if (s.resolution() == r && !d.members().isEmpty() && selected.containsAll(d.members())
                        && d.members().stream().noneMatch(m -> overlaps(covered, m, s))) {
                    for (String m : d.members()) {
                        covered.computeIfAbsent(m, k -> new ArrayList<>())
                                .add(new WindowSpan(m, r, s.startMillis(), s.endMillis()));
                    }
                    rollups.add(d.version());
                }
            }
            for (WindowVersion v : ofExecutions) { // none of (ten) minutes: stored for deployments only
                WindowSpan s = v.span();
                if (s.resolution() == r && !overlaps(covered, s.executionKey(), s)) {
                    covered.computeIfAbsent(s.executionKey(), k -> new ArrayList<>()).add(s);
                    rollups.add(v);
                }
            }
        }
        return new Chosen(covered, rollups);
    }

    /** The parts {@code [start, end)} of [fromMillis, toMillis) that the spans (any order, may be null) leave uncovered, in order. */
    static List<long[]> uncovered(List<WindowSpan> spans, long fromMillis, long toMillis) {
        List<WindowSpan> sorted = new ArrayList<>(spans == null ? List.of() : spans);
        sorted.sort(Comparator.comparingLong(WindowSpan::startMillis));
        List<long[]> gaps = new ArrayList<>();
        long at = fromMillis;
        for (WindowSpan s : sorted) {
            if (at >= toMillis) {
                break;
            }
            if (s.startMillis() > at) {
                gaps.add(new long[] {at, Math.min(s.startMillis(), toMillis)});
            }
            at = Math.max(at, s.endMillis());
        }
        if (at < toMillis) {
            gaps.add(new long[] {at, toMillis});
        }
        return gaps;
    }

    /** Whether the range can hold a whole window of {@code r} (no overflow for "all time"). */
    private static boolean fits(Resolution r, long fromMillis, long toMillis) {
        return fromMillis <= toMillis - r.millis();
    }

    /** Whether an execution's covered spans overlap {@code s}. */
    private static boolean overlaps(Map<String, List<WindowSpan>> covered, String executionKey, WindowSpan s) {
        for (WindowSpan c : covered.getOrDefault(executionKey, List.of())) {
            if (c.startMillis() < s.endMillis() && s.startMillis() < c.endMillis()) {
                return true;
            }
        }
        return false;
    }

    /** A fine window longer than the job's usual one may start in a rolled-up hour and reach into a gap. */
    private static boolean isCovered(Map<String, List<WindowSpan>> covered, String executionKey, long start) {
        for (WindowSpan s : covered.getOrDefault(executionKey, List.of())) {
            if (s.startMillis() <= start && start < s.endMillis()) {
                return true;
            }
        }
        return false;
    }
}
