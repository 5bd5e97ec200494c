package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.metrics.CallSite;
import io.cctflow.core.metrics.CallSites;
import io.cctflow.core.metrics.CalleeTime;
import io.cctflow.core.metrics.CallerTime;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Callers and callees by call site against a per-sample brute force on random stacks
 * ({@link RandomStacks}: a small alphabet, so stacks recurse often, and three call-site lines):
 * a sample counts once for (c, l) when some frame of m in scope at i is followed by c at i + 1
 * called from line l; once for (p, l) when p at i - 1 calls a frame of m in scope at i from line l.
 */
class CallSitesTest {
    private static final int ALPHABET = 4;

    @Property(tries = 300)
    void callSitesEqualPerSampleCounts(@ForAll long seed, @ForAll @IntRange(min = 0, max = 3) int pick,
            @ForAll @IntRange(min = -1, max = 3) int root) {
        RandomStacks data = RandomStacks.generate(seed, 200, 12, ALPHABET);
        Cct tree = data.toTree();
        long m = ScopedMetricsTest.c(pick);
        Scope scope = root < 0 ? Scope.whole(tree) : Scope.dynamicTaskRoot(tree, ScopedMetricsTest.c(root));
        ScopedMetricsTest.ScopeStart start = root < 0 ? ScopedMetricsTest.WHOLE
                : ScopedMetricsTest.firstOf(Set.of(ScopedMetricsTest.c(root)));
        Map<String, Long> callees = new HashMap<>();
        Map<String, Long> callers = new HashMap<>();
        for (int s = 0; s < data.methods().size(); s++) {
            long[] stack = data.methods().get(s);
            int[] lines = data.lines().get(s);
            Set<String> calleeSeen = new HashSet<>();
            Set<String> callerSeen = new HashSet<>();
            for (int i = start.of(stack); i < stack.length; i++) {
                if (stack[i] == m && i + 1 < stack.length) {
                    calleeSeen.add(stack[i + 1] + "@" + lines[i + 1]);
                }
                if (stack[i] == m && i > 0) {
                    callerSeen.add(stack[i - 1] + "@" + lines[i]);
                }
            }
            long count = data.counts().get(s);
            calleeSeen.forEach(k -> callees.merge(k, count, Long::sum));
            callerSeen.forEach(k -> callers.merge(k, count, Long::sum));
        }
        long methodSamples = MethodTime.of(scope, m).methodSamples();
        List<CallSite> gotCallees = CallSites.callees(scope, m);
        List<CallSite> gotCallers = CallSites.callers(scope, m);
        assertThat(asMap(gotCallees, methodSamples)).as("callee sites").isEqualTo(callees);
        assertThat(asMap(gotCallers, methodSamples)).as("caller sites").isEqualTo(callers);
        // split by line, a method's sites cover at least its per-method row, never more than their sum
        assertCoversPerMethodRows(gotCallees, ScopedMetricsTest.asMap(CalleeTime.of(scope, m)));
        assertCoversPerMethodRows(gotCallers, ScopedMetricsTest.asMap(CallerTime.of(scope, m)));
    }

    private static Map<String, Long> asMap(List<CallSite> sites, long methodSamples) {
        Map<String, Long> out = new HashMap<>();
        for (int i = 0; i < sites.size(); i++) {
            CallSite site = sites.get(i);
            out.put(site.method() + "@" + site.line(), site.samples());
            assertThat(site.share()).isEqualTo((double) site.samples() / methodSamples);
            if (i > 0) {
                assertThat(site.samples()).isLessThanOrEqualTo(sites.get(i - 1).samples());
            }
        }
        return out;
    }

    private static void assertCoversPerMethodRows(List<CallSite> sites, Map<Long, Long> perMethod) {
        Map<Long, Long> summed = new HashMap<>();
        Map<Long, Long> largest = new HashMap<>();
        for (CallSite s : sites) {
            summed.merge(s.method(), s.samples(), Long::sum);
            largest.merge(s.method(), s.samples(), Math::max);
        }
        assertThat(summed.keySet()).isEqualTo(perMethod.keySet());
        perMethod.forEach((method, samples) -> {
            assertThat(summed.get(method)).isGreaterThanOrEqualTo(samples);
            assertThat(largest.get(method)).isLessThanOrEqualTo(samples);
        });
    }

    @Test
    void twoLinesOfOneCallerAreTwoSitesAndRecursionCountsOnce() {
        long a = ScopedMetricsTest.c(0);
        long b = ScopedMetricsTest.c(1);
        Cct tree = new Cct();
        tree.addStack(new long[] {a, b}, new int[] {0, 7}, 2, 3);
        tree.addStack(new long[] {a, b}, new int[] {0, 9}, 2, 2);
        // a calls b from line 7 twice on one stack (through recursion): one sample for (b, 7)
        tree.addStack(new long[] {a, b, a, b}, new int[] {0, 7, 1, 7}, 4, 4);
        assertThat(CallSites.callees(Scope.whole(tree), a)).containsExactly(
                new CallSite(b, 7, 7, 7 / 9.0), new CallSite(b, 9, 2, 2 / 9.0));
        assertThat(CallSites.callers(Scope.whole(tree), b)).containsExactly(
                new CallSite(a, 7, 7, 7 / 9.0), new CallSite(a, 9, 2, 2 / 9.0));
        assertThat(CallSites.callers(Scope.whole(tree), a)).containsExactly(new CallSite(b, 1, 4, 4 / 9.0));
    }
}
