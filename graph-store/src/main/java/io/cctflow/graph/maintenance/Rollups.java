package io.cctflow.graph.maintenance;

import io.cctflow.graph.Keys;
import io.cctflow.graph.read.CoveredWindow;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import io.cctflow.model.WindowSpan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.LongPredicate;
import java.util.function.Supplier;
import org.neo4j.driver.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The roll-up pass: sums fine windows into hourly windows and hourly into daily ones, per
 * execution, and writes them with {@code SET} (idempotent: running a pass twice writes the same
 * numbers). The {@link MaintenanceScheduler} runs it on a schedule ({@code rollup.interval}
 * in the query service); anything that owns a driver may run it.
 *
 * <p>An hour is rolled up once it is <em>settled</em>: its end lies {@code settle} before now, so
 * most of its batches have been written (the samples job adds each batch to its window as it comes). Fine
 * windows written after their hour was rolled up (an import of old recordings, a replay) are found
 * by their write time ({@code written}, the database clock) and their hour and day are rolled up
 * again. A day is rolled up from its hours once all of them are settled.
 *
 * <p>Each pass also writes the roll-ups of whole deployments ({@link DeploymentWindow}): per
 * deployment and hour (and day), the sum of all its executions' windows, and per ten minutes and per
 * minute of a rolled-up hour the sum of its executions' fine windows that start in them (minute
 * windows only where they are much smaller than what they sum, {@link #MINUTE_SHARE}). They are
 * written with the executions' roll-ups of the same hour or day, so late windows roll them up again too.
 *
 * <p><b>The live hour.</b> An hour is rolled up only once settled, so a read of a range ending now
 * (a "last 3 h") would read the current hour and the last minutes of the previous one from every
 * execution's fine windows (up to ~75 one-minute windows per instance). So each pass also rolls
 * up, in the hours not settled yet, every <em>ten-minute slot</em> settled by the same rule (its end
 * {@code settle} before now): the deployment's and its instance groups' ten-minute and minute sums
 * of the fine windows that start in it, as the hour's roll-up would write them (the executions' own
 * hourly windows, and the deployment's hour, wait for the hour as before). A range read then reads
 * those sums for all but the last {@code settle} (plus up to a slot and a pass interval). Slots are
 * rolled up as hours are: each once it settles ({@link RollupState#slotsDoneUntil}), again when a
 * fine window in it is written later (found by {@code written}), from all its fine windows (none is
 * deleted before its hour is rolled up, {@link Retention}, so the sums never hold less than before);
 * when the hour settles its roll-up adds the executions' and deployment's hours.
 *
 * <p><b>The live tail.</b> In the slots not settled yet, each pass also sums every <em>minute</em>
 * settled by a shorter rule (its end {@code minuteSettle}, {@link #DEFAULT_MINUTE_SETTLE}, before
 * now) into the deployment's and its groups' minute sums ({@link RollupState#minutesDoneUntil}; a
 * minute with a fine window written later is summed again), so a read ending now reads fine windows
 * of the last {@code minuteSettle} plus up to one pass interval only. A slot's or an hour's roll-up
 * writes only the ten-minute and minute sums that are due ({@link Due}): those no earlier pass
 * wrote, and those a fine window was written into since; the others keep their {@code written}
 * time, so readers' caches keep them. With {@code provisionalMinutes} (the query service's
 * scheduler) each pass also sums the minutes that have ended and are not settled yet, each with
 * the digest of the fine windows it sums ({@code sources}, {@link io.cctflow.graph.SourcesDigest}),
 * which a read compares with the fine windows it lists before using the sum; a pass sums such a
 * minute again only where its fine windows are no longer those its sums name ({@link
 * UnchangedMinutes}), and once it settles, writes it as a settled sum (or, unchanged, drops its
 * {@code sources}).
 *
 * <p>The same sums are also written per <em>instance group</em> of each deployment ({@link
 * Keys#instanceGroup}: the executions fall into {@code groups} groups by a stable hash of their
 * key), under the group's key with the group's members: a comparison reads them where it would read
 * the deployment's and takes the groups as its replicates, so what differs between JVMs stays in its
 * noise. A group of one execution gets none (its own roll-ups are the same counts), and the minute
 * rule applies per group.
 *
 * <p>A roll-up is never rewritten from less than it holds: each instance roll-up records which fine
 * windows it covers, and once retention has deleted some of them a late fine window is added to the
 * stored roll-up instead of summing what is left ({@link CoveredSum}); what cannot be added exactly
 * is refused and counted ({@link Result#refused}). A deployment's hourly and daily windows are the
 * sums of its executions' ones, so they inherit that.
 *
 * <p>Memory: one execution at a time, the next one read ahead. Rolling up an hour holds two
 * executions' fine windows of that hour (the one summed and the next, read meanwhile on the pass's
 * read-ahead thread, {@link ReadAhead}: 2 x 60 at the samples job's default 1-min window), up to
 * {@value RollupWrites#BATCH} of its new hourly windows waiting to be written ({@link RollupWrites.Batch}),
 * and its deployment's running sums (the hour and its six ten-minute windows, each folded every
 * {@value RunningSum#PENDING} windows, and its 60 minute windows, folded every {@value
 * #MINUTE_PENDING}); a ten-minute slot of a live hour, or the minutes of one, holds two reads of up
 * to {@value #READ_WINDOWS} one-minute fine windows (of 6 executions' ten minutes, or of 60
 * executions' one), its deployment's ten-minute sum and its 10 minute sums; a day holds two executions' 24 hourly windows, a batch of
 * daily windows and the deployment's running day sum. The executions are walked group by group, so
 * one instance group's running sums are held besides the deployment's. Besides these, only the deployment's
 * execution keys (its {@code members}) grow with the number of executions; the number of
 * deployments and windows in the store does not change it.
 *
 * <p>Not thread-safe: run one pass at a time (the query service runs them on one thread). A pass
 * reads on one thread of its own besides the caller's, and stops it before it returns.
 */
public final class Rollups {
    private static final Logger LOG = LoggerFactory.getLogger(Rollups.class);

    /**
     * Windows each of a deployment's 60 minute sums holds before folding them in: 60 x 4 windows
     * of one execution's size at most, where 16 as for the other sums would be 960.
     */
    static final int MINUTE_PENDING = 4;

    /**
     * One-minute fine windows a slot's or minutes' roll-up reads per query at most: the windows of
     * as many executions as fit (60 executions' one minute, 6 executions' ten), as an hour's
     * roll-up reads one execution's 60. A pass a minute after the last reads one minute of every
     * execution, and one query per execution cost more than the sums.
     */
    static final int READ_WINDOWS = 60;

    /**
     * A deployment's minute window is created only when its rows are at most a quarter of the
     * rows of the fine windows it sums ({@link SlotSums#worthCreating}): so it adds at most a
     * quarter of their bytes to the store (far less for a deployment of many busy instances,
     * whose minutes share most nodes), and a light deployment of a few instances, whose sums
     * would be nearly as big as their parts, gets none.
     */
    static final int MINUTE_SHARE = 4;

    /**
     * How long after its end a minute of a ten-minute slot not settled yet is summed ({@link
     * #Rollups(Driver, String, Duration, Duration, int)}): 2 min. The samples job adds every batch
     * to its one-minute window as it comes, whatever its age (no allowed lateness, no watermark), so
     * a minute is never closed; what the settle buys is that its batches have normally arrived. A
     * batch of the window's last seconds leaves the agent within its flush interval (10 s), is
     * written at the job's next checkpoint (10 s) and was queryable within 23.8-48.6 s at the p99
     * with 1,000 busy instances (pipeline journal, 2026-11-29): about 70 s after the minute's end,
     * inside 2 min. A batch later than that is a late window like any other: the next pass sums its
     * minute again.
     */
    public static final Duration DEFAULT_MINUTE_SETTLE = Duration.ofMinutes(2);

    private final WindowReader reader;
    private final RollupWrites writes;
    private final RollupProgress progress;
    private final long settleMillis;
    private final long minuteSettleMillis;
    private final boolean provisionalMinutes;
    private final int groups;

    /**
     * What one pass did: hours, ten-minute slots of hours not settled yet, minutes of slots not
     * settled yet, and days rolled up, windows written, fine windows refused (not added to a
     * roll-up that already holds other versions of them or whose parts are gone), and deployments'
     * minutes whose provisional sums still held ({@link UnchangedMinutes}): not summed again, or
     * settled as they were.
     */
    public record Result(int hours, int slots, int minutes, int days, int windowsWritten, int refused,
            int minutesKept) {
    }

    /** {@link #Rollups(Driver, String, Duration, int)} with {@value Keys#DEFAULT_INSTANCE_GROUPS} instance groups. */
    public Rollups(Driver driver, String database, Duration settle) {
        this(driver, database, settle, Keys.DEFAULT_INSTANCE_GROUPS);
    }

    /**
     * Roll-ups of the windows in {@code database} (the default one when empty), hours settled
     * {@code settle} after their end, with the sums of each deployment's instances in {@code groups}
     * instance groups ({@link Keys#instanceGroup}, 1..{@value Keys#MAX_INSTANCE_GROUPS}).
     */
    public Rollups(Driver driver, String database, Duration settle, int groups) {
        this(driver, database, settle, DEFAULT_MINUTE_SETTLE, groups);
    }

    /**
     * {@link #Rollups(Driver, String, Duration, int)} with the minutes of ten-minute slots not
     * settled yet summed {@code minuteSettle} after their end; at or above {@code settle}, minutes
     * wait for their slot.
     */
    public Rollups(Driver driver, String database, Duration settle, Duration minuteSettle, int groups) {
        this(driver, database, settle, minuteSettle, groups, false);
    }

    /**
     * {@link #Rollups(Driver, String, Duration, Duration, int)}; with {@code provisionalMinutes}
     * (and {@code minuteSettle} below {@code settle}) each pass also sums the minutes that have
     * ended but are not settled yet into provisional minute sums, which carry the digest of the
     * fine windows they sum ({@code sources}, {@link io.cctflow.graph.SourcesDigest}): a range read
     * uses one only where the fine windows it lists are exactly those (a window rewritten or added
     * since makes it read the fine windows), and the pass sums the minute again, as a settled sum,
     * once it settles.
     */
    public Rollups(Driver driver, String database, Duration settle, Duration minuteSettle, int groups,
            boolean provisionalMinutes) {
        if (settle.isNegative() || minuteSettle.isNegative()) {
            throw new IllegalArgumentException("settle times must not be negative, got " + settle + " and "
                    + minuteSettle);
        }
        this.groups = Keys.checkInstanceGroups(groups);
        // windows as stored (projected: summed and written back so, no topology needed); no window cache
        this.reader = WindowReader.asStored(driver, database);
        this.writes = new RollupWrites(driver, database);
        this.progress = new RollupProgress(driver, database);
        this.settleMillis = settle.toMillis();
        this.minuteSettleMillis = minuteSettle.toMillis();
        this.provisionalMinutes = provisionalMinutes && minuteSettleMillis < settleMillis;
    }

    /**
     * Rolls up every hour settled at {@code nowMillis}, every ten-minute slot settled then in the
     * hours after them, every minute settled then (by the minute settle) in the slots after those,
     * and every complete day not rolled up yet.
     */
    public Result rollUp(long nowMillis) {
        RollupState state = progress.read();
        long passStart = reader.databaseTimeMillis();
        long hourEnd = Resolution.HOUR.floor(nowMillis - settleMillis);
        long slotEnd = Resolution.TEN_MINUTES.floor(nowMillis - settleMillis); // >= hourEnd
        // minutes only from slotEnd; none when they would settle no sooner than their slot
        long minuteEnd = minuteSettleMillis < settleMillis ? Resolution.MINUTE.floor(nowMillis - minuteSettleMillis)
                : slotEnd;
        long dayEnd = Resolution.DAY.floor(hourEnd);

        TreeSet<Long> hours = new TreeSet<>();
        for (long start : reader.windowStarts(Resolution.FINE, state.hourDoneUntil(), hourEnd)) {
            hours.add(Resolution.HOUR.floor(start));
        }
        TreeSet<Long> slots = new TreeSet<>();
        long slotsFrom = Math.max(hourEnd, state.slotsDoneUntil());
        if (slotsFrom < slotEnd) {
            for (long start : reader.windowStarts(Resolution.FINE, slotsFrom, slotEnd)) {
                slots.add(Resolution.TEN_MINUTES.floor(start));
            }
        }
        TreeSet<Long> minutes = new TreeSet<>();
        long minutesFrom = Math.max(slotEnd, state.minutesDoneUntil());
        if (minutesFrom < minuteEnd) {
            for (long start : reader.windowStarts(Resolution.FINE, minutesFrom, minuteEnd)) {
                minutes.add(Resolution.MINUTE.floor(start));
            }
        }
        // minutes ended and not settled: summed provisionally, not done (summed again next pass)
        TreeSet<Long> provisional = new TreeSet<>();
        long provisionalFrom = Math.max(Math.max(minuteEnd, slotEnd), state.minutesDoneUntil());
        long provisionalEnd = Resolution.MINUTE.floor(nowMillis);
        if (provisionalMinutes && provisionalFrom < provisionalEnd) {
            for (long start : reader.windowStarts(Resolution.FINE, provisionalFrom, provisionalEnd)) {
                provisional.add(Resolution.MINUTE.floor(start));
            }
        }
        Set<Long> late = new HashSet<>(); // minutes with a fine window written since the last pass
        if (state.lastPassMillis() != Long.MIN_VALUE) {
            for (long start : reader.fineStartsWrittenSince(state.lastPassMillis(), Math.max(slotEnd, minuteEnd))) {
                late.add(Resolution.MINUTE.floor(start));
                if (start < hourEnd) {
                    hours.add(Resolution.HOUR.floor(start));
                } else if (start < slotEnd) {
                    slots.add(Resolution.TEN_MINUTES.floor(start));
                } else {
                    minutes.add(Resolution.MINUTE.floor(start));
                }
            }
        }
        Due due = new Due(state, late);
        Tally tally = new Tally();
        ExecutorService readAhead = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cctflow-rollup-read-ahead");
            t.setDaemon(true);
            return t;
        });
        try {
            rollHoursAndDays(state, hours, dayEnd, due, readAhead, tally);
            for (long slot : slots) {
                rollSlots(slot, slot + Resolution.TEN_MINUTES.millis(), due.tens(), deployment -> due.minutes(),
                        minute -> false, readAhead, tally);
            }
            TreeSet<Long> all = new TreeSet<>(minutes);
            all.addAll(provisional);
            if (!all.isEmpty()) { // one read of each execution's windows for all of them; only theirs summed
                long from = all.first();
                long to = all.last() + Resolution.MINUTE.millis();
                // provisional sums that still hold: not summed again; those settling now settle as they are
                UnchangedMinutes unchanged = provisionalMinutes ? UnchangedMinutes.find(reader, from, to)
                        : UnchangedMinutes.NONE;
                tally.kept = unchanged.count(all);
                for (long minute : minutes) {
                    tally.written += writes.settleSums(unchanged.sumKeys(minute, groups), Resolution.MINUTE, minute);
                }
                rollSlots(from, to, slot -> false, deployment -> minute -> all.contains(minute)
                        && !unchanged.contains(deployment, minute), provisional::contains, readAhead, tally);
            }
        } finally {
            readAhead.shutdownNow();
        }
        progress.write(new RollupState(Math.max(hourEnd, state.hourDoneUntil()),
                Math.max(dayEnd, state.dayDoneUntil()), Math.max(slotEnd, state.slotsDoneUntil()),
                Math.max(Math.max(minuteEnd, slotEnd), state.minutesDoneUntil()),
                passStart - WindowReader.WRITE_MARGIN_MILLIS));
        return new Result(hours.size(), slots.size(), minutes.size() + provisional.size(), tally.days, tally.written,
                tally.refused, tally.kept);
    }

    /**
     * Which ten-minute and minute sums a pass writes: those no earlier pass wrote ({@link
     * RollupState#slotDone}, {@link RollupState#minuteDone}) and those where a fine window was
     * written since the last pass ({@code late}, minute starts). The others hold what summing their
     * fine windows again would give (every fine window written after a pass read them is found by
     * a later pass by its {@code written} time), so they are left as they are: rewriting them would
     * change their {@code written} time and make readers' caches read them again.
     */
    private record Due(RollupState state, Set<Long> late) {
        LongPredicate minutes() {
            return minute -> !state.minuteDone(minute) || late.contains(minute);
        }

        LongPredicate tens() {
            return slot -> !state.slotDone(slot) || lateIn(slot);
        }

        private boolean lateIn(long slot) {
            for (long m = slot; m < slot + Resolution.TEN_MINUTES.millis(); m += Resolution.MINUTE.millis()) {
                if (late.contains(m)) {
                    return true;
                }
            }
            return false;
        }
    }

    private void rollHoursAndDays(RollupState state, TreeSet<Long> hours, long dayEnd, Due due,
            ExecutorService readAhead, Tally tally) {
        for (long hour : hours) {
            rollHour(hour, due, readAhead, tally);
        }

        TreeSet<Long> days = new TreeSet<>();
        for (long start : reader.windowStarts(Resolution.HOUR, state.dayDoneUntil(), dayEnd)) {
            days.add(Resolution.DAY.floor(start));
        }
        for (long hour : hours) {
            if (Resolution.DAY.floor(hour) < dayEnd) {
                days.add(Resolution.DAY.floor(hour));
            }
        }
        for (long day : days) {
            rollDay(day, readAhead, tally);
        }
        tally.days = days.size();
    }

    /**
     * Rolls up one hour: per deployment, one execution at a time, that execution's fine windows of
     * the hour into its hourly window ({@link CoveredSum}), which is added to the deployment's hourly
     * sum and to its instance group's; the fine windows are also added to the deployment's and the
     * group's ten-minute and minute sums ({@link SpanSums}) that are {@link Due} (those a slot's or
     * minute's roll-up wrote and no fine window changed since are left as they are). Ten-minute and
     * minute windows of slots where an execution's covered fine windows are gone are left as they
     * are (they expire with the fine windows).
     */
    private void rollHour(long hour, Due due, ExecutorService readAhead, Tally tally) {
        long end = hour + Resolution.HOUR.millis();
        Supplier<SpanSums> sums = () -> new SpanSums(Resolution.HOUR, hour, due.tens(), due.minutes());
        for (Map.Entry<String, TreeSet<String>> d : byDeployment(hour, end, Resolution.FINE, Resolution.HOUR)
                .entrySet()) {
            SpanSums deployment = sums.get();
            RollupWrites.Batch batch = writes.batch(Resolution.HOUR);
            GroupWalk group = new GroupWalk(sums, batch, tally);
            ReadAhead.forEach(byGroup(d.getValue()), readAhead, execution -> new Parts(
                    reader.coveredWindows(execution, Resolution.FINE, hour, end),
                    single(reader.coveredWindows(execution, Resolution.HOUR, hour, hour + 1))), (execution, parts) -> {
                        SpanSums mine = group.enter(execution);
                        List<CoveredWindow> fine = parts.parts();
                        CoveredWindow existing = parts.existing();
                        Map<Long, WindowCounts> byStart = new HashMap<>();
                        for (CoveredWindow f : fine) {
                            byStart.put(f.window().windowStartMillis(), f.window());
                            deployment.addFine(execution, f.window());
                            mine.addFine(execution, f.window());
                        }
                        if (existing != null && existing.coverage() != null) {
                            for (long s : existing.coverage().starts()) {
                                if (!byStart.containsKey(s)) {
                                    deployment.missing(s);
                                    mine.missing(s);
                                }
                            }
                        }
                        CoveredWindow rolled = fine.isEmpty() ? existing
                                : store(CoveredSum.combine(execution, hour, Resolution.HOUR, existing, fine,
                                        starts -> starts.stream().map(byStart::get).toList()), Resolution.HOUR,
                                        batch, tally);
                        if (rolled != null) { // null only if its windows went between the listing and the read
                            deployment.addRolled(rolled.window());
                            mine.addRolled(rolled.window());
                        }
                    });
            group.leave();
            batch.flush(); // the executions' roll-ups before the deployment's
            tally.written += deployment.write(writes, d.getKey(), List.copyOf(d.getValue()));
        }
    }

    /**
     * Rolls up [from, to) of an hour not settled yet, a ten-minute slot or minutes of one: per
     * deployment, one execution at a time (their windows read {@value #READ_WINDOWS} one-minute
     * windows' worth of executions per query, the next read ahead), that execution's fine windows starting in it are added to
     * the deployment's and its instance group's ten-minute and minute sums ({@link SpanSums}) of the
     * slots and minutes that are due (minutes per deployment, by its key), which are written; no
     * execution's own roll-up (they wait for the hour). A deployment's executions' fine windows are
     * read only from its first minute due to its last; a deployment with none due is not read.
     */
    private void rollSlots(long from, long to, LongPredicate tensDue, Function<String, LongPredicate> minutesDue,
            LongPredicate provisional, ExecutorService readAhead, Tally tally) {
        for (Map.Entry<String, TreeSet<String>> d : byDeployment(from, to, Resolution.FINE).entrySet()) {
            LongPredicate minutesDueHere = minutesDue.apply(d.getKey());
            long readFrom = Long.MAX_VALUE;
            long readTo = Long.MIN_VALUE;
            for (long m = Resolution.MINUTE.floor(from); m < to; m += Resolution.MINUTE.millis()) {
                if (tensDue.test(Resolution.TEN_MINUTES.floor(m)) || minutesDueHere.test(m)) {
                    readFrom = Math.min(readFrom, Math.max(m, from));
                    readTo = m + Resolution.MINUTE.millis();
                }
            }
            if (readFrom >= readTo) {
                continue;
            }
            long fromDue = readFrom;
            long toDue = Math.min(readTo, to);
            Supplier<SpanSums> sums = () -> new SpanSums(Resolution.TEN_MINUTES, from, tensDue, minutesDueHere,
                    provisional);
            SpanSums deployment = sums.get();
            // no execution roll-up is written: the walk's batch stays empty
            GroupWalk group = new GroupWalk(sums, writes.batch(Resolution.TEN_MINUTES), tally);
            int perRead = (int) Math.max(1, READ_WINDOWS * Resolution.MINUTE.millis() / (toDue - fromDue));
            ReadAhead.forEach(chunks(byGroup(d.getValue()), perRead), readAhead,
                    executions -> reader.coveredWindows(executions, Resolution.FINE, fromDue, toDue),
                    (executions, fine) -> {
                        for (String execution : executions) {
                            SpanSums mine = group.enter(execution);
                            for (CoveredWindow f : fine.getOrDefault(execution, List.of())) {
                                deployment.addFine(execution, f.window());
                                mine.addFine(execution, f.window());
                            }
                        }
                    });
            group.leave();
            tally.written += deployment.write(writes, d.getKey(), List.copyOf(d.getValue()));
        }
    }

    /**
     * Rolls up one day: per deployment, one execution at a time, that execution's hourly windows of
     * the day into its daily window ({@link CoveredSum}: fine windows its hours cover and it does not
     * are read by key), added to the deployment's daily sum and to its instance group's.
     */
    private void rollDay(long day, ExecutorService readAhead, Tally tally) {
        long end = day + Resolution.DAY.millis();
        for (Map.Entry<String, TreeSet<String>> d : byDeployment(day, end, Resolution.HOUR, Resolution.DAY)
                .entrySet()) {
            SpanSums deployment = new SpanSums(Resolution.DAY, day);
            RollupWrites.Batch batch = writes.batch(Resolution.DAY);
            GroupWalk group = new GroupWalk(() -> new SpanSums(Resolution.DAY, day), batch, tally);
            ReadAhead.forEach(byGroup(d.getValue()), readAhead, execution -> new Parts(
                    reader.coveredWindows(execution, Resolution.HOUR, day, end),
                    single(reader.coveredWindows(execution, Resolution.DAY, day, day + 1))), (execution, parts) -> {
                        SpanSums mine = group.enter(execution);
                        CoveredWindow rolled = parts.parts().isEmpty() ? parts.existing()
                                : store(CoveredSum.combine(execution, day, Resolution.DAY, parts.existing(),
                                        parts.parts(), starts -> reader.windows(starts.stream().map(s -> new WindowSpan(
                                                execution, Resolution.FINE, s, s + 1)).toList())), Resolution.DAY,
                                        batch, tally);
                        if (rolled != null) {
                            deployment.addRolled(rolled.window());
                            mine.addRolled(rolled.window());
                        }
                    });
            group.leave();
            batch.flush();
            tally.written += deployment.write(writes, d.getKey(), List.copyOf(d.getValue()));
        }
    }

    /** {@code keys} in consecutive runs of {@code size} (the last one shorter), in their order. */
    private static List<List<String>> chunks(List<String> keys, int size) {
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < keys.size(); i += size) {
            out.add(keys.subList(i, Math.min(keys.size(), i + size)));
        }
        return out;
    }

    /** A deployment's executions ordered by instance group ({@link Keys#groupOf}), then by key. */
    private List<String> byGroup(TreeSet<String> executions) {
        return executions.stream().sorted(Comparator.comparingInt((String e) -> Keys.groupOf(e, groups))
                .thenComparing(Comparator.naturalOrder())).toList();
    }

    /**
     * The sums of the instance group whose executions are being walked (they come group by group,
     * {@link #byGroup}), written when the walk enters the next group or {@link #leave}s: so a pass
     * holds one group's sums at a time besides the deployment's.
     */
    private final class GroupWalk {
        private final Supplier<SpanSums> newSums;
        private final RollupWrites.Batch batch;
        private final Tally tally;
        private final List<String> members = new ArrayList<>();
        private String key;
        private SpanSums sums;

        /** @param newSums new, empty sums as the deployment's (the same span, the same slots due) */
        GroupWalk(Supplier<SpanSums> newSums, RollupWrites.Batch batch, Tally tally) {
            this.newSums = newSums;
            this.batch = batch;
            this.tally = tally;
        }

        /** The sums of the execution's group, those of the previous group written first if it is another. */
        SpanSums enter(String execution) {
            String k = Keys.instanceGroup(execution, groups);
            if (!k.equals(key)) {
                leave();
                key = k;
                sums = newSums.get();
            }
            members.add(execution);
            return sums;
        }

        /** Writes the current group's sums, after its executions' roll-ups. */
        void leave() {
            if (key != null) {
                batch.flush(); // the executions' roll-ups before their group's
                tally.written += sums.write(writes, key, List.copyOf(members));
                members.clear();
                key = null;
                sums = null;
            }
        }
    }

    private CoveredWindow store(CoveredSum.Outcome outcome, Resolution resolution, RollupWrites.Batch batch,
            Tally tally) {
        if (outcome.refused() > 0) {
            WindowCounts w = outcome.rollup().window();
            LOG.warn("{} roll-up of {} at {}: {} fine window(s) refused, since what they replace or add to is gone"
                    + " (retention); the roll-up keeps what it held", resolution.property(), w.executionKey(),
                    w.windowStartMillis(), outcome.refused());
            tally.refused += outcome.refused();
        }
        if (outcome.changed()) {
            batch.add(outcome.rollup());
            tally.written++;
        }
        return outcome.rollup();
    }

    /**
     * The executions with windows of any of the {@code resolutions} starting in [from, to), by their
     * deployment's roll-up key; both sorted.
     */
    private TreeMap<String, TreeSet<String>> byDeployment(long from, long to, Resolution... resolutions) {
        TreeMap<String, TreeSet<String>> out = new TreeMap<>();
        for (Resolution r : resolutions) {
            for (String execution : reader.executionsWithWindows(r, from, to)) {
                out.computeIfAbsent(Keys.deploymentRollup(execution), k -> new TreeSet<>()).add(execution);
            }
        }
        return out;
    }

    private static CoveredWindow single(List<CoveredWindow> windows) {
        return windows.isEmpty() ? null : windows.get(0);
    }

    /** One execution's windows inside a roll-up's slot, and its stored roll-up there (or null). */
    private record Parts(List<CoveredWindow> parts, CoveredWindow existing) {
    }

    /** What a pass has done so far. */
    private static final class Tally {
        int days;
        int written;
        int refused;
        int kept;
    }
}
