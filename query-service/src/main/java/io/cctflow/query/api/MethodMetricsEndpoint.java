package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.core.RawThreadNames;
import io.cctflow.core.ThreadNames;
import io.cctflow.core.metrics.CallSite;
import io.cctflow.core.metrics.CallSites;
import io.cctflow.core.metrics.MethodMetrics;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import io.cctflow.core.metrics.Shares;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.model.MethodRecord;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code GET /api/v1/metrics/method}: every metric of a method (seed 002 Sect. 3.3.2) over a
 * selection of executions and a time range, relative to the whole tree, selected tasks or a
 * dynamic root method: method and self time (over all named overloads together), and per overload
 * its callee, caller and thread time, and its callees and callers by call site (the invocation
 * view: one row per method and line of the call), each with the raw sample counts behind it;
 * counting the samples of the selected threads only with {@code thread} and {@code thread-group}
 * ({@link ThreadParams}). With {@code migrate} ({@link MigratedAnswers}) the figures of a young
 * deployment blend its previous deployment's migrated profile in; every count then has a {@code
 * migrated...} twin saying how much of it came from the previous deployment (the thread breakdown
 * is empty: the migrated part has no per-thread counts), and {@code migration} says how much of the
 * whole answer is migrated.
 */
public final class MethodMetricsEndpoint implements JsonHandler.Endpoint {
    public static final Set<String> PARAMS = union(Selection.PARAMS, ScopeParams.PARAMS, ThreadParams.PARAMS,
            MigratedAnswers.PARAMS, Set.of("method", "top"));

    private final CatalogueReader catalogue;
    private final TopologyReader topology;
    private final TreeSource trees;
    private final MigratedAnswers migrations;

    public MethodMetricsEndpoint(CatalogueReader catalogue, TopologyReader topology, TreeSource trees,
            MigratedAnswers migrations) {
        this.catalogue = catalogue;
        this.topology = topology;
        this.trees = trees;
        this.migrations = migrations;
    }

    /**
     * One callee, caller or thread: "samples out of the method's method samples".
     *
     * @param migratedSamples the part of {@code samples} migrated from the previous deployment
     */
    public record Share(String name, long samples, double share, long migratedSamples) {
    }

    /**
     * One thread (pool) of the method's samples: its normalised name, "samples out of the method's
     * method samples", and the raw names of the pool's threads stored for the selection (at most
     * {@value RawThreadNames#MAX_PER_POOL}, the smallest in string order; empty for data of agents
     * that did not send them).
     *
     * @param migratedSamples the part of {@code samples} migrated from the previous deployment (0:
     *     migrated counts carry no threads)
     */
    public record ThreadShare(String name, long samples, double share, long migratedSamples, List<String> rawNames) {
    }

    /**
     * One call site (seed 002's invocation view): the calling or called method, the line of the
     * call, and "samples out of the method's method samples".
     */
    public record Site(String method, int line, long samples, double share, long migratedSamples) {
    }

    /**
     * Every metric of one overload.
     *
     * @param calleeSites the callees split by the line of this method calling them
     * @param callerSites the callers split by the line of the caller calling this method
     */
    public record Overload(String signature, long methodSamples, double methodTime, long selfSamples, double selfTime,
            long migratedMethodSamples, long migratedSelfSamples, List<Share> callees, List<Share> callers, List<ThreadShare> threads, List<Site> calleeSites,
            List<Site> callerSites) {
    }

    /** The response body. */
    public record Response(
            String service,
            String version,
            List<String> instances,
            String from,
            String to,
            String method,
            String scope,
            List<String> tasks,
            String root,
            ThreadParams threads,
            List<String> overloads,
            long methodSamples,
            long totalSamples,
            double methodTime,
            long selfSamples,
            double selfTime,
            long migratedMethodSamples,
            long migratedSelfSamples,
            MigratedAnswers.Summary migration,
            List<Overload> metrics) {
    }

    @Override
    public Response handle(QueryParams params) {
        params.allowOnly(PARAMS);
        int top = params.integer("top", 1, trees.limits().maxResults()).orElse(Math.min(50, trees.limits().maxResults()));
        List<MethodRecord> methods = MethodResolver.all(catalogue, "method", params.required("method"));
        ThreadParams threads = ThreadParams.of(params);
        Selection selection = Selection.of(params, catalogue, trees.limits());
        TreeSource.Named loaded = trees.loadWithThreadNames(selection);
        MigratedAnswers.Answer answer = migrations.answer(params, selection, threads, threads.apply(loaded.tree()));
        Cct tree = answer.tree();
        ScopeParams scope = ScopeParams.of(params, catalogue, topology, selection.service(), tree);
        // the migrated part of every figure: the same metric in the same scope on the migrated counts
        Scope migratedScope = answer.migrated() ? answer.migratedScope(scope.scope()) : null;
        Set<Long> ids = methods.stream().map(MethodRecord::id).collect(Collectors.toSet());
        MethodTime all = MethodTime.of(scope.scope(), ids::contains);
        MethodTime allMigrated = migratedScope == null ? NONE : MethodTime.of(migratedScope, ids::contains);

        List<MethodMetrics> each = new ArrayList<>();
        List<List<CallSite>> calleeSites = new ArrayList<>();
        List<List<CallSite>> callerSites = new ArrayList<>();
        Set<Long> named = new HashSet<>();
        List<MethodMetrics> eachMigrated = new ArrayList<>();
        List<List<CallSite>> calleeSitesMigrated = new ArrayList<>();
        List<List<CallSite>> callerSitesMigrated = new ArrayList<>();
        for (MethodRecord m : methods) {
            MethodMetrics mm = MethodMetrics.of(scope.scope(), m.id());
            each.add(mm);
            eachMigrated.add(migratedScope == null ? null : MethodMetrics.of(migratedScope, m.id()));
            calleeSitesMigrated.add(migratedScope == null ? List.of() : CallSites.callees(migratedScope, m.id()));
            callerSitesMigrated.add(migratedScope == null ? List.of() : CallSites.callers(migratedScope, m.id()));
            for (Shares s : List.of(mm.callees(), mm.callers())) {
                for (int i = 0; i < Math.min(top, s.size()); i++) {
                    named.add(s.key(i));
                }
            }
            calleeSites.add(top(CallSites.callees(scope.scope(), m.id()), top));
            callerSites.add(top(CallSites.callers(scope.scope(), m.id()), top));
            calleeSites.get(calleeSites.size() - 1).forEach(site -> named.add(site.method()));
            callerSites.get(callerSites.size() - 1).forEach(site -> named.add(site.method()));
        }
        Map<Long, String> names = MethodResolver.signatures(catalogue, named);
        List<Overload> overloads = new ArrayList<>();
        for (int k = 0; k < methods.size(); k++) {
            MethodMetrics mm = each.get(k);
            MethodMetrics mig = eachMigrated.get(k);
            overloads.add(new Overload(methods.get(k).signature(), mm.time().methodSamples(), mm.time().methodTime(),
                    mm.time().selfSamples(), mm.time().selfTime(), mig == null ? 0 : mig.time().methodSamples(),
                    mig == null ? 0 : mig.time().selfSamples(),
                    shares(mm.callees(), mig == null ? null : mig.callees(), top, names::get),
                    shares(mm.callers(), mig == null ? null : mig.callers(), top, names::get),
                    threadShares(mm.threads(), top, tree, loaded.rawThreadNames()),
                    sites(calleeSites.get(k), calleeSitesMigrated.get(k), names),
                    sites(callerSites.get(k), callerSitesMigrated.get(k), names)));
        }
        return new Response(selection.service(), selection.version(),
                selection.instances().stream().map(i -> i.instanceId()).toList(),
                selection.from().toString(), selection.to().toString(), params.required("method"),
                scope.kind(), scope.tasks(), scope.root(), threads,
                methods.stream().map(MethodRecord::signature).toList(),
                all.methodSamples(), all.scopeSamples(), all.methodTime(), all.selfSamples(), all.selfTime(),
                allMigrated.methodSamples(), allMigrated.selfSamples(), answer.summary(), overloads);
    }

    private static final MethodTime NONE = new MethodTime(0, 0, 0);

    /** @param migrated the same shares on the migrated counts, or null */
    private static List<ThreadShare> threadShares(Shares s, int top, Cct tree, RawThreadNames raw) {
        List<ThreadShare> out = new ArrayList<>();
        for (int i = 0; i < Math.min(top, s.size()); i++) {
            String name = tree.threadName((int) s.key(i));
            out.add(new ThreadShare(name, s.samples(i), s.share(i), 0, raw.namesOf(ThreadNames.id(name))));
        }
        return out;
    }

    private static List<Share> shares(Shares s, Shares migrated, int top, java.util.function.LongFunction<String> name) {
        List<Share> out = new ArrayList<>();
        for (int i = 0; i < Math.min(top, s.size()); i++) {
            out.add(new Share(name.apply(s.key(i)), s.samples(i), s.share(i),
                    migrated == null ? 0 : migrated.samplesOf(s.key(i))));
        }
        return out;
    }

    private static List<CallSite> top(List<CallSite> sites, int top) {
        return sites.subList(0, Math.min(top, sites.size()));
    }

    /** @param migrated the same call sites on the migrated counts (empty without a migration) */
    private static List<Site> sites(List<CallSite> sites, List<CallSite> migrated, Map<Long, String> names) {
        Map<List<Long>, Long> migratedSamples = new java.util.HashMap<>();
        migrated.forEach(m -> migratedSamples.put(List.of(m.method(), (long) m.line()), m.samples()));
        return sites.stream().map(s -> new Site(names.get(s.method()), s.line(), s.samples(), s.share(),
                migratedSamples.getOrDefault(List.of(s.method(), (long) s.line()), 0L))).toList();
    }

    @SafeVarargs
    static Set<String> union(Set<String>... sets) {
        Set<String> all = new HashSet<>();
        for (Set<String> s : sets) {
            all.addAll(s);
        }
        return Set.copyOf(all);
    }
}
