package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.core.task.MatchType;
import io.cctflow.core.task.TaskDefinition;
import io.cctflow.core.task.TaskLabeller;
import io.cctflow.core.task.TaskLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Tests of {@link TaskDefinition}, {@link TaskLabeller} and {@link TaskLabels} (seed 002 Sect. 3.3.3). */
class TaskLabellingTest {
    static final int ALPHABET = 6;

    /** Definitions over the RandomStacks names {@code C<k>.m}; several can match one method. */
    static final List<TaskDefinition> POOL = List.of(
            TaskDefinition.prefix("one", "C1.", "task-one"),
            TaskDefinition.prefix("low", "C0", "task-low"),
            TaskDefinition.regex("svc", "^C(?<service-name>[23])\\.m$", "svc-${service-name}"),
            TaskDefinition.regex("any", "(?<digit>[0-9])\\.", "d${digit}"),
            TaskDefinition.regex("odd", "C[135]", "task-odd"),
            TaskDefinition.prefix("none", "D", "task-none"));

    /** Resolves RandomStacks method ids to {@code C<k>.m}. */
    static LongFunction<String> names(int alphabet) {
        Map<Long, String> names = new HashMap<>();
        for (int k = 0; k < alphabet; k++) {
            names.put(MethodId.of("C" + k, "m", "()V"), "C" + k + ".m");
        }
        return names::get;
    }

    static List<TaskDefinition> pick(long seed) {
        Random random = new Random(seed);
        List<TaskDefinition> picked = new ArrayList<>();
        for (TaskDefinition d : POOL) {
            if (random.nextBoolean()) {
                picked.add(d);
            }
        }
        return picked;
    }

    /** Brute force: the union of the task names of every method on the node's path. */
    static Set<String> expectedLabels(Cct tree, int node, List<TaskDefinition> defs, LongFunction<String> names) {
        Set<String> labels = new TreeSet<>();
        for (int n = node; n != Cct.ROOT; n = tree.parent(n)) {
            for (TaskDefinition d : defs) {
                String task = d.taskNameFor(names.apply(tree.method(n)));
                if (task != null) {
                    labels.add(task);
                }
            }
        }
        return labels;
    }

    @Property(tries = 200)
    void nodeLabelsAreTheUnionOfTheMatchesOnItsPath(@ForAll long seed) {
        Cct tree = RandomStacks.generate(seed, 150, 10, ALPHABET).toTree();
        List<TaskDefinition> defs = pick(seed);
        LongFunction<String> names = names(ALPHABET);
        TaskLabels labels = new TaskLabeller(names, defs).label(tree);

        assertThat(labels.labelledNodes()).isEqualTo(tree.size());
        for (int n = 0; n < tree.size(); n++) {
            assertThat(new TreeSet<>(labels.taskNames(n))).as("node %d", n)
                    .isEqualTo(expectedLabels(tree, n, defs, names));
        }
    }

    @Property(tries = 200)
    void taskRootsAreTheHighestLabelledNodes(@ForAll long seed) {
        Cct tree = RandomStacks.generate(seed, 150, 10, ALPHABET).toTree();
        List<TaskDefinition> defs = pick(seed);
        LongFunction<String> names = names(ALPHABET);
        TaskLabels labels = new TaskLabeller(names, defs).label(tree);
        Set<String> selected = Set.of("task-one", "svc-3");

        List<Integer> expected = new ArrayList<>();
        for (int n = 1; n < tree.size(); n++) {
            boolean in = intersects(expectedLabels(tree, n, defs, names), selected);
            boolean parentIn = intersects(expectedLabels(tree, tree.parent(n), defs, names), selected);
            if (in && !parentIn) {
                expected.add(n);
            }
        }
        assertThat(labels.taskRoots(selected.toArray(new String[0]))).containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
    }

    private static boolean intersects(Set<String> labels, Set<String> selected) {
        for (String s : selected) {
            if (labels.contains(s)) {
                return true;
            }
        }
        return false;
    }

    @Property(tries = 100)
    void updateLabelsNewNodesLikeAFreshLabelling(@ForAll long seed) {
        RandomStacks data = RandomStacks.generate(seed, 120, 10, ALPHABET);
        List<TaskDefinition> defs = pick(seed);
        LongFunction<String> names = names(ALPHABET);
        Cct tree = new Cct(16);
        TaskLabels incremental = new TaskLabeller(names, defs).label(tree);
        for (int s = 0; s < data.methods().size(); s++) {
            tree.addStack(data.methods().get(s), data.lines().get(s), data.methods().get(s).length, 1);
            if (s % 7 == 0) {
                incremental.update();
            }
        }
        incremental.update();

        TaskLabels fresh = new TaskLabeller(names, defs).label(tree);
        for (int n = 0; n < tree.size(); n++) {
            assertThat(incremental.taskNames(n)).as("node %d", n).containsExactlyInAnyOrderElementsOf(fresh.taskNames(n));
        }
    }

    @Property(tries = 100)
    void addingADefinitionRelabelsLikeAFreshLabelling(@ForAll long seed) {
        Cct tree = RandomStacks.generate(seed, 120, 10, ALPHABET).toTree();
        List<TaskDefinition> defs = new ArrayList<>(pick(seed));
        LongFunction<String> names = names(ALPHABET);
        TaskLabeller labeller = new TaskLabeller(names, defs);
        TaskLabels labels = labeller.label(tree);

        TaskDefinition added = TaskDefinition.regex("late", "^C(?<k>[0-9])", "late-${k}");
        labeller.addDefinition(added);
        labels.relabel();
        defs.add(added);

        for (int n = 0; n < tree.size(); n++) {
            assertThat(new TreeSet<>(labels.taskNames(n))).as("node %d", n)
                    .isEqualTo(expectedLabels(tree, n, defs, names));
        }
    }

    @Test
    void eachMethodIsResolvedOncePerBatchOfNewDefinitions() {
        Cct tree = RandomStacks.generate(42, 300, 12, ALPHABET).toTree();
        AtomicInteger calls = new AtomicInteger();
        LongFunction<String> names = names(ALPHABET);
        TaskLabeller labeller = new TaskLabeller(id -> {
            calls.incrementAndGet();
            return names.apply(id);
        }, POOL);
        TaskLabels labels = labeller.label(tree);
        assertThat(calls.get()).isEqualTo(ALPHABET);

        labeller.label(tree);
        assertThat(calls.get()).isEqualTo(ALPHABET);

        labeller.addDefinition(TaskDefinition.prefix("c4", "C4", "four"));
        labels.update(); // notices the new definition and relabels
        assertThat(calls.get()).isEqualTo(2 * ALPHABET);
        int c4 = tree.indexOf(NodeId.child(NodeId.ROOT, MethodId.of("C4", "m", "()V"), 0));
        assertThat(labels.taskNames(c4)).contains("four");
    }

    @Test
    void childLabelsWorkWithoutATree() {
        TaskLabeller labeller = new TaskLabeller(names(ALPHABET), POOL);
        int c1 = labeller.childLabels(TaskLabeller.NO_TASKS, MethodId.of("C1", "m", "()V"));
        int c1c2 = labeller.childLabels(c1, MethodId.of("C2", "m", "()V"));
        assertThat(labeller.taskNamesOf(c1)).containsExactlyInAnyOrder("task-one", "d1", "task-odd");
        assertThat(labeller.taskNamesOf(c1c2)).containsExactlyInAnyOrder("task-one", "d1", "task-odd", "svc-2", "d2");
        // interned: the same set reached another way has the same id
        int c2c1 = labeller.childLabels(labeller.childLabels(TaskLabeller.NO_TASKS, MethodId.of("C2", "m", "()V")),
                MethodId.of("C1", "m", "()V"));
        assertThat(c2c1).isEqualTo(c1c2);
        assertThat(labeller.childLabels(TaskLabeller.NO_TASKS, 12345L)).isEqualTo(TaskLabeller.NO_TASKS);
    }

    @Test
    void prefixDefinitionOfListing34NamesTheTaskStatically() {
        TaskDefinition d = new TaskDefinition("UserRegisterTask", MatchType.PREFIX,
                "com.mycompany.service.UserRegister", "user-register");
        assertThat(d.taskNameFor("com.mycompany.service.UserRegister.register")).isEqualTo("user-register");
        assertThat(d.taskNameFor("com.mycompany.service.UserRegister$Validator.check")).isEqualTo("user-register");
        assertThat(d.taskNameFor("com.mycompany.service.Search.find")).isNull();
        assertThat(d.taskNameFor("org.com.mycompany.service.UserRegister.register")).isNull();
    }

    @Test
    void regexDefinitionOfListing35NamesTheTaskFromTheHyphenatedGroup() {
        TaskDefinition d = TaskDefinition.regex("ServiceTask", "^com.mycompany.service.(?<service-name>[^\\.]+)",
                "service-${service-name}");
        assertThat(d.taskNameFor("com.mycompany.service.UserRegister.register")).isEqualTo("service-UserRegister");
        assertThat(d.taskNameFor("com.mycompany.service.Search.find")).isEqualTo("service-Search");
        assertThat(d.taskNameFor("com.mycompany.core.Server.serve")).isNull();
    }

    @Test
    void regexTemplateMayUseSeveralGroupsAndLiteralDollars() {
        TaskDefinition d = TaskDefinition.regex("x", "^(?<pkg>[a-z]+)\\.(?<cls>[A-Z]\\w*)\\.(?<m>\\w+)$", "$${pkg}/${cls}#${m}");
        assertThat(d.taskNameFor("app.Main.run")).isEqualTo("$app/Main#run");
        // character classes and escapes are not mistaken for groups
        TaskDefinition e = TaskDefinition.regex("y", "[(?<x>]\\(?<(?<real>a)", "${real}");
        assertThat(e.taskNameFor("(<a")).isEqualTo("a");
    }

    @Test
    void optionalGroupThatDidNotMatchYieldsNoTask() {
        TaskDefinition d = TaskDefinition.regex("opt", "^a(?<tail>b)?", "t-${tail}");
        assertThat(d.taskNameFor("ab.m")).isEqualTo("t-b");
        assertThat(d.taskNameFor("ac.m")).isNull();
    }

    @Test
    void invalidDefinitionsAreRejectedWithMessagesThatSayWhatToFix() {
        assertThatThrownBy(() -> TaskDefinition.regex("bad", "^com.(?<x>[a-z", "t-${x}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bad'").hasMessageContaining("invalid regular expression");
        assertThatThrownBy(() -> TaskDefinition.regex("nogroup", "^com.(?<service>[a-z]+)", "t-${service-name}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no group named 'service-name'").hasMessageContaining("[service]");
        assertThatThrownBy(() -> TaskDefinition.prefix("p", "com.x", "t-${x}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PREFIX");
        assertThatThrownBy(() -> TaskDefinition.regex("u", "a", "t-${x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unclosed");
        assertThatThrownBy(() -> TaskDefinition.regex("g", "(?<1x>a)", "t"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid group name '1x'");
        assertThatThrownBy(() -> TaskDefinition.regex("d", "(?<a>x)(?<a>y)", "t"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("defined twice");
        assertThatThrownBy(() -> TaskDefinition.prefix("e", "", "t"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pattern is missing");
        assertThatThrownBy(() -> new TaskLabeller(names(1), List.of(POOL.get(0), POOL.get(0))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already used");
    }

    @Test
    void backReferencesAndLookAroundAreRejectedBecauseTheyCannotMatchInLinearTime() {
        assertThatThrownBy(() -> TaskDefinition.regex("br", "(?<w-1>[a-z])\\k<w-1>", "dbl-${w-1}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'br'")
                .hasMessageContaining("back reference").hasMessageContaining("RE2");
        assertThatThrownBy(() -> TaskDefinition.regex("n", "([a-z])\\1", "t"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid escape sequence")
                .hasMessageContaining("RE2");
        for (String lookAround : List.of("(?<=\\.)a", "(?<!x)a", "a(?=b)", "a(?!b)")) {
            assertThatThrownBy(() -> TaskDefinition.regex("la", lookAround, "t"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("look-around at index");
        }
        // inside a character class these characters are literals
        assertThat(TaskDefinition.regex("cls", "[(?<=]x", "t").taskNameFor("A.=x")).isEqualTo("t");
    }

    /** A backtracking engine takes about 2^n steps here (n = 5,000); a linear-time one does not. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS) // turns the hang of a backtracking engine into a failure
    void catastrophicPatternsFinish() {
        TaskDefinition nested = TaskDefinition.regex("evil", "(a+)+$", "evil");
        TaskDefinition grouped = TaskDefinition.regex("evil2", "^(?<x>(a|aa)+)$", "e-${x}");
        String hostile = "a".repeat(5_000) + "b";
        assertThat(nested.taskNameFor(hostile)).isNull();
        assertThat(grouped.taskNameFor(hostile)).isNull();
        assertThat(nested.taskNameFor("a".repeat(5_000))).isEqualTo("evil");
        assertThat(grouped.taskNameFor("aaa")).isEqualTo("e-aaa");
    }
}
