package io.cctflow.core.metrics;

import io.cctflow.core.Cct;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Callers and callees of a method by call site (seed 002's invocation view): {@link CallerTime}
 * and {@link CalleeTime} split by the call-site line, so two calls of c from different lines of m
 * are two rows. Per sample: the samples whose stack has, at least once, a frame of m in scope
 * calling c from line l (callee sites), or p calling a frame of m in scope from line l (caller
 * sites); each sample counts once per site however often it recurs. The sites of one method add up
 * to at least its per-method row (a sample through two lines counts for both).
 */
public final class CallSites {
    private CallSites() {
    }

    /**
     * Callees of m in scope by (callee, line in m), most samples first, then by method id and line.
     * O(nodes + the recursion depths of the callee nodes).
     */
    public static List<CallSite> callees(Scope scope, long methodId) {
        Cct tree = scope.tree();
        Map<Site, Long> sums = new HashMap<>();
        for (int i = 1; i < scope.nodes(); i++) {
            if (isCalleeSite(scope, i, methodId) && !calleeSiteAbove(scope, i, methodId)) {
                sums.merge(new Site(tree.method(i), tree.callSiteLine(i)), tree.total(i), Long::sum);
            }
        }
        return sorted(sums, MethodTime.of(scope, methodId).methodSamples());
    }

    /** Callers of m in scope by (caller, line in the caller), ordered as {@link #callees}. */
    public static List<CallSite> callers(Scope scope, long methodId) {
        Cct tree = scope.tree();
        Map<Site, Long> sums = new HashMap<>();
        for (int i = 1; i < scope.nodes(); i++) {
            int parent = tree.parent(i);
            if (tree.method(i) != methodId || parent == Cct.ROOT || !scope.contains(i)) {
                continue;
            }
            Site site = new Site(tree.method(parent), tree.callSiteLine(i));
            if (!callerSiteAbove(scope, i, site)) {
                sums.merge(site, tree.total(i), Long::sum);
            }
        }
        return sorted(sums, MethodTime.of(scope, methodId).methodSamples());
    }

    private record Site(long method, int line) {
    }

    /** Whether node i is called by a frame of m in scope. */
    private static boolean isCalleeSite(Scope scope, int i, long methodId) {
        int parent = scope.tree().parent(i);
        return parent != Cct.ROOT && scope.tree().method(parent) == methodId && scope.contains(parent);
    }

    /** Whether a same-method ancestor of node i is the same callee site (same line, called by m in scope). */
    private static boolean calleeSiteAbove(Scope scope, int i, long methodId) {
        Cct tree = scope.tree();
        // the scope is closed downwards: once a caller is outside, every higher one is too
        for (int a = tree.recursiveParent(i); a != Cct.NONE && scope.contains(tree.parent(a));
                a = tree.recursiveParent(a)) {
            if (tree.callSiteLine(a) == tree.callSiteLine(i) && isCalleeSite(scope, a, methodId)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a same-method ancestor of node i in scope is reached through the same caller site. */
    private static boolean callerSiteAbove(Scope scope, int i, Site site) {
        Cct tree = scope.tree();
        for (int a = tree.recursiveParent(i); a != Cct.NONE && scope.contains(a); a = tree.recursiveParent(a)) {
            int p = tree.parent(a);
            if (p != Cct.ROOT && tree.method(p) == site.method() && tree.callSiteLine(a) == site.line()) {
                return true;
            }
        }
        return false;
    }

    private static List<CallSite> sorted(Map<Site, Long> sums, long methodSamples) {
        List<CallSite> out = new ArrayList<>(sums.size());
        sums.forEach((site, samples) -> out.add(new CallSite(site.method(), site.line(), samples,
                methodSamples == 0 ? 0.0 : (double) samples / methodSamples)));
        out.sort(Comparator.comparingLong(CallSite::samples).reversed().thenComparingLong(CallSite::method)
                .thenComparingInt(CallSite::line));
        return out;
    }
}
