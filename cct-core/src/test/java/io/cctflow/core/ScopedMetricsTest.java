package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.metrics.Shares;
import io.cctflow.core.metrics.CalleeTime;
import io.cctflow.core.metrics.CallerTime;
import io.cctflow.core.metrics.MethodMetrics;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import io.cctflow.core.metrics.ThreadTime;
import io.cctflow.core.task.TaskDefinition;
import io.cctflow.core.task.TaskLabeller;
import io.cctflow.core.task.TaskLabels;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Metrics of seed 002 Eq. 3.3-3.15 and 3.23-3.25 against per-sample references computed directly
 * from the stacks. Per sample, a scope is "the frames from index s on", where s is the first frame
 * in scope: 0 for the whole tree, the first frame whose method matches a selected task for a task
 * scope (labels are inherited, so every deeper frame is labelled), the first frame of the marked
 * method for a dynamic task root. Then:
 * <ul>
 *   <li>scope samples: samples with a frame in scope (the whole tree: all samples);
 *   <li>method samples of m: samples with a frame of m at index &gt;= s;
 *   <li>self samples of m: samples whose leaf frame is m at index &gt;= s;
 *   <li>callee samples of (m, c): samples with m at i-1 &gt;= s directly followed by c at i;
 *   <li>caller samples of (p, m): samples with p at i-1 directly followed by m at i &gt;= s;
 *   <li>thread samples of (m, t): samples of thread t (normalised name) with a frame of m at
 *       index &gt;= s.
 * </ul>
 * Each sample counts once per metric however often the pattern occurs in its stack (recursion).
 */
class ScopedMetricsTest {
    private static final int ALPHABET = 4;

    static long c(int k) {
        return MethodId.of("C" + k, "m", "()V");
    }

    /** Scope start of a stack; stack.length when no frame is in scope. */
    interface ScopeStart {
        int of(long[] stack);
    }

    static final ScopeStart WHOLE = stack -> 0;

    static ScopeStart firstOf(Set<Long> methods) {
        return stack -> {
            for (int i = 0; i < stack.length; i++) {
                if (methods.contains(stack[i])) {
                    return i;
                }
            }
            return stack.length;
        };
    }

    record Expected(long scope, long method, long self, Map<Long, Long> callees, Map<Long, Long> callers,
            Map<String, Long> threads) {
    }

    static Expected bruteForce(RandomStacks data, ScopeStart start, long m, boolean wholeTree) {
        long scope = 0;
        long method = 0;
        long self = 0;
        Map<Long, Long> callees = new HashMap<>();
        Map<Long, Long> callers = new HashMap<>();
        Map<String, Long> threads = new HashMap<>();
        for (int s = 0; s < data.methods().size(); s++) {
            long[] stack = data.methods().get(s);
            long count = data.counts().get(s);
            int from = start.of(stack);
            if (wholeTree || from < stack.length) {
                scope += count;
            }
            boolean contains = false;
            Map<Long, Boolean> calleeSeen = new HashMap<>();
            Map<Long, Boolean> callerSeen = new HashMap<>();
            for (int i = from; i < stack.length; i++) {
                if (stack[i] == m) {
                    contains = true;
                    if (i > 0) {
                        callerSeen.put(stack[i - 1], true);
                    }
                    if (i + 1 < stack.length) {
                        calleeSeen.put(stack[i + 1], true);
                    }
                }
            }
            if (contains) {
                method += count;
                threads.merge(ThreadNames.normalise(data.threads().get(s)), count, Long::sum);
            }
            if (stack.length > 0 && from < stack.length && stack[stack.length - 1] == m) {
                self += count;
            }
            calleeSeen.keySet().forEach(k -> callees.merge(k, count, Long::sum));
            callerSeen.keySet().forEach(k -> callers.merge(k, count, Long::sum));
        }
        return new Expected(scope, method, self, callees, callers, threads);
    }

    static void assertMatches(Scope scope, long m, Expected expected) {
        MethodTime time = MethodTime.of(scope, m);
        assertThat(time.scopeSamples()).as("scope samples").isEqualTo(expected.scope());
        assertThat(time.methodSamples()).as("method samples").isEqualTo(expected.method());
        assertThat(time.selfSamples()).as("self samples").isEqualTo(expected.self());
        assertThat(time.methodSamples()).isLessThanOrEqualTo(time.scopeSamples());

        Shares callees = CalleeTime.of(scope, m);
        assertThat(callees.methodSamples()).isEqualTo(expected.method());
        assertThat(asMap(callees)).as("callees").isEqualTo(expected.callees());

        Shares callers = CallerTime.of(scope, m);
        assertThat(callers.methodSamples()).isEqualTo(expected.method());
        assertThat(asMap(callers)).as("callers").isEqualTo(expected.callers());

        Shares threads = ThreadTime.of(scope, m);
        assertThat(threads.methodSamples()).isEqualTo(expected.method());
        Map<String, Long> byName = new HashMap<>();
        asMap(threads).forEach((id, samples) -> byName.put(scope.tree().threadName(Math.toIntExact(id)), samples));
        assertThat(byName).as("threads").isEqualTo(expected.threads());
        // every sample was merged with its thread, so the shares add up to 1 (Eq. 3.16)
        assertThat(byName.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(expected.method());

        assertThat(MethodMetrics.of(scope, m)).isEqualTo(new MethodMetrics(time, callees, callers, threads));
    }

    static Map<Long, Long> asMap(Shares shares) {
        Map<Long, Long> map = new HashMap<>();
        for (int i = 0; i < shares.size(); i++) {
            map.put(shares.key(i), shares.samples(i));
            assertThat(shares.samples(i)).isPositive().isLessThanOrEqualTo(shares.methodSamples());
            if (i > 0) {
                assertThat(shares.samples(i)).isLessThanOrEqualTo(shares.samples(i - 1));
            }
        }
        return map;
    }

    @Property(tries = 300)
    void wholeTreeMetricsEqualPerSampleCounts(@ForAll long seed, @ForAll @IntRange(min = 0, max = 3) int pick) {
        RandomStacks data = RandomStacks.generate(seed, 200, 12, ALPHABET);
        Scope scope = Scope.whole(data.toTree());
        assertThat(scope.roots()).containsExactly(Cct.ROOT);
        assertMatches(scope, c(pick), bruteForce(data, WHOLE, c(pick), true));
    }

    @Property(tries = 300)
    void taskRelativeMetricsEqualPerSampleCountsWithinTaskSubtrees(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 3) int pick, @ForAll @IntRange(min = 0, max = 3) int task) {
        RandomStacks data = RandomStacks.generate(seed, 200, 12, ALPHABET);
        Cct tree = data.toTree();
        LongFunction<String> names = TaskLabellingTest.names(ALPHABET);
        // "svc-<k>" for C<k>; "pair" for C2 and C3 (two methods, one task)
        TaskLabels labels = new TaskLabeller(names, List.of(
                TaskDefinition.regex("svc", "^C(?<k>[0-9])\\.", "svc-${k}"),
                TaskDefinition.regex("pair", "^C[23]\\.", "pair"))).label(tree);
        boolean pair = task == 3;
        Scope scope = pair ? Scope.ofTasks(labels, "pair") : Scope.ofTasks(labels, "svc-" + task);
        Set<Long> taskMethods = pair ? Set.of(c(2), c(3)) : Set.of(c(task));

        assertThat(scope.roots()).containsExactly(pair ? labels.taskRoots("pair") : labels.taskRoots("svc-" + task));
        assertMatches(scope, c(pick), bruteForce(data, firstOf(taskMethods), c(pick), false));
    }

    @Property(tries = 300)
    void dynamicTaskRootMetricsEqualPerSampleCountsBelowTheMarkedMethod(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 3) int pick, @ForAll @IntRange(min = 0, max = 3) int root) {
        RandomStacks data = RandomStacks.generate(seed, 200, 12, ALPHABET);
        Cct tree = data.toTree();
        Scope scope = Scope.dynamicTaskRoot(tree, c(root));
        assertMatches(scope, c(pick), bruteForce(data, firstOf(Set.of(c(root))), c(pick), false));
        // the marked method is its own reference: method time 1 (when it ran at all)
        MethodTime self = MethodTime.of(scope, c(root));
        assertThat(self.methodSamples()).isEqualTo(self.scopeSamples())
                .isEqualTo(MethodTime.of(Scope.whole(tree), c(root)).methodSamples());
    }

    /**
     * The thesis's motivating example (Sect. 3.3.3) with numbers: email validation is mostly called
     * by the core service, so globally it looks like the core's cost; within the user-register task
     * it is most of the registration's time.
     */
    @Test
    void userRegisterTaskShowsTheSlowEmailValidationOfTheRegistration() {
        long main = MethodId.of("com.mycompany.App", "main", "()V");
        long serve = MethodId.of("com.mycompany.core.Server", "serve", "()V");
        long register = MethodId.of("com.mycompany.service.UserRegister", "register", "()V");
        long validate = MethodId.of("com.mycompany.util.EmailValidator", "validate", "()Z");
        long store = MethodId.of("com.mycompany.db.Store", "save", "()V");
        Map<Long, String> names = Map.of(main, "com.mycompany.App.main", serve, "com.mycompany.core.Server.serve",
                register, "com.mycompany.service.UserRegister.register",
                validate, "com.mycompany.util.EmailValidator.validate", store, "com.mycompany.db.Store.save");
        Cct tree = new Cct();
        tree.addStack(new long[] {main, serve}, new int[] {0, 5}, 2, 900);
        tree.addStack(new long[] {main, serve, validate}, new int[] {0, 5, 9}, 3, 90);
        tree.addStack(new long[] {main, register}, new int[] {0, 6}, 2, 1);
        tree.addStack(new long[] {main, register, validate}, new int[] {0, 6, 3}, 3, 8);
        tree.addStack(new long[] {main, register, store}, new int[] {0, 6, 4}, 3, 1);

        TaskLabels labels = new TaskLabeller(names::get, List.of(TaskDefinition.prefix("UserRegisterTask",
                "com.mycompany.service.UserRegister", "user-register"))).label(tree);
        Scope task = Scope.ofTasks(labels, "user-register");

        MethodTime global = MethodTime.of(Scope.whole(tree), validate);
        assertThat(global.methodSamples()).isEqualTo(98);
        assertThat(global.scopeSamples()).isEqualTo(1000);
        MethodTime inTask = MethodTime.of(task, validate);
        assertThat(inTask.methodSamples()).isEqualTo(8);
        assertThat(inTask.scopeSamples()).isEqualTo(10);
        assertThat(inTask.methodTime()).isEqualTo(0.8);
        assertThat(inTask.selfTime()).isEqualTo(1.0);

        Shares calleesOfRegister = CalleeTime.of(task, register);
        assertThat(calleesOfRegister.methodSamples()).isEqualTo(10);
        assertThat(calleesOfRegister.key(0)).isEqualTo(validate);
        assertThat(calleesOfRegister.share(0)).isEqualTo(0.8);
        assertThat(calleesOfRegister.samplesOf(store)).isEqualTo(1);

        Shares callersOfValidate = CallerTime.of(Scope.whole(tree), validate);
        assertThat(callersOfValidate.samplesOf(serve)).isEqualTo(90);
        assertThat(callersOfValidate.samplesOf(register)).isEqualTo(8);
        // the task root's caller is outside the task but still reported
        assertThat(CallerTime.of(task, register).samplesOf(main)).isEqualTo(10);
        assertThat(CallerTime.of(task, validate).samplesOf(serve)).isZero();

        // dynamic task root on register: same numbers without any definition
        MethodTime dynamic = MethodTime.of(Scope.dynamicTaskRoot(tree, register), validate);
        assertThat(dynamic).isEqualTo(inTask);
    }

    @Test
    void recursionCountsEachSampleOncePerCalleeAndCaller() {
        long a = c(0);
        long b = c(1);
        Cct tree = new Cct();
        // a -> b -> a -> b: one sample; the pair (a, b) occurs twice, counted once
        tree.addStack(new long[] {a, b, a, b}, new int[] {0, 1, 1, 1}, 4, 3);
        // a -> a -> b: direct recursion, b called from the inner a only
        tree.addStack(new long[] {a, a, b}, new int[] {0, 2, 2}, 3, 2);
        Shares callees = CalleeTime.of(Scope.whole(tree), a);
        assertThat(callees.methodSamples()).isEqualTo(5);
        assertThat(callees.samplesOf(b)).isEqualTo(5);
        assertThat(callees.samplesOf(a)).isEqualTo(2);
        Shares callers = CallerTime.of(Scope.whole(tree), b);
        assertThat(callers.samplesOf(a)).isEqualTo(5);
        assertThat(callers.size()).isEqualTo(1);
        assertThat(CallerTime.of(Scope.whole(tree), a).samplesOf(b)).isEqualTo(3);
        assertThat(CallerTime.of(Scope.whole(tree), a).samplesOf(a)).isEqualTo(2);
    }

    /** Eq. 3.20-3.22 by hand: a pool's threads are one thread name; recursion counts once. */
    @Test
    void threadTimeSplitsMethodSamplesByNormalisedThreadName() {
        long run = c(0);
        long parse = c(1);
        Cct tree = new Cct();
        tree.addStack(new long[] {run, parse, parse}, new int[] {0, 1, 2}, 3, tree.thread("pool-1-thread-1"), 5);
        tree.addStack(new long[] {run, parse}, new int[] {0, 1}, 2, tree.thread("pool-1-thread-2"), 3);
        tree.addStack(new long[] {run, parse}, new int[] {0, 1}, 2, tree.thread("main"), 2);
        tree.addStack(new long[] {run}, new int[] {0}, 1, tree.thread("main"), 10);

        MethodMetrics metrics = MethodMetrics.of(Scope.whole(tree), parse);
        Shares threads = metrics.threads();
        assertThat(threads.methodSamples()).isEqualTo(10);
        assertThat(threads.size()).isEqualTo(2); // T(parse), Eq. 3.21: the pool and main
        assertThat(tree.threadName(Math.toIntExact(threads.key(0)))).isEqualTo("pool-#-thread-#");
        assertThat(threads.samples(0)).isEqualTo(8);
        assertThat(threads.share(0)).isEqualTo(0.8);
        assertThat(threads.samplesOf(tree.thread("main"))).isEqualTo(2);
        assertThat(metrics.time().methodTime()).isEqualTo(0.5);
        assertThat(metrics.callers().samplesOf(run)).isEqualTo(10);
        assertThat(metrics.callees().samplesOf(parse)).isEqualTo(5);
        // run is on main for 12 of its 20 samples
        assertThat(ThreadTime.of(Scope.whole(tree), run).samplesOf(tree.thread("main"))).isEqualTo(12);
    }

    @Test
    void emptyScopesGiveZeroShares() {
        Cct tree = RandomStacks.generate(1, 20, 5, 2).toTree();
        Scope none = Scope.dynamicTaskRoot(tree, 12345L);
        assertThat(none.roots()).isEmpty();
        MethodTime t = MethodTime.of(none, c(0));
        assertThat(t).isEqualTo(new MethodTime(0, 0, 0));
        assertThat(t.methodTime()).isZero();
        assertThat(t.selfTime()).isZero();
        assertThat(CalleeTime.of(none, c(0)).size()).isZero();
        assertThat(MethodTime.of(Scope.whole(new Cct()), c(0)).methodTime()).isZero();
    }
}
