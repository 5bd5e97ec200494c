package io.cctflow.core.diff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cctflow.core.Cct;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class TreeDiffTest {
    private static final long A = Trees.method('A');
    private static final long C = Trees.method('C');
    private static final long F = Trees.method('F');
    private static final long I = Trees.method('I');

    @Test
    void addedCallIsStageOneAndShiftedCallUnderModifiedMethodIsStageTwo() {
        Cct old = CommonTreeTest.figure3bOld();
        Cct neu = CommonTreeTest.figure3bNew();
        DiffResult r = TreeDiff.compare(old, neu, new ChangeList(new long[] {F}, new long[0], new long[] {A}),
                Weight.SELF, 1.0, 0);

        assertThat(r.commonTreeSize()).isEqualTo(5);
        assertThat(r.stage(Stage.ADDED)).isEqualTo(new StageSummary(Stage.ADDED, 0, 0, 1, 2));
        assertThat(r.stage(Stage.DELETED)).isEqualTo(new StageSummary(Stage.DELETED, 0, 0, 0, 0));
        assertThat(r.stage(Stage.MODIFIED)).isEqualTo(new StageSummary(Stage.MODIFIED, 1, 1, 1, 1));
        assertThat(r.stage(Stage.SIDE_EFFECT)).isEqualTo(new StageSummary(Stage.SIDE_EFFECT, 0, 0, 0, 0));

        Difference added = r.differences().get(0);
        assertThat(added.stage()).isEqualTo(Stage.ADDED);
        assertThat(added.root()).isEqualTo(Trees.node(neu, "A0/F2"));
        assertThat(added.suspectMethods()).containsExactly(A); // the caller of the added method

        Difference i10 = r.differences().get(1);
        assertThat(i10.inSecond()).isFalse();
        assertThat(i10.root()).isEqualTo(Trees.node(old, "A0/C3/I10"));
        assertThat(i10.method()).isEqualTo(I);
        assertThat(i10.suspects()).containsExactly(Trees.node(old, "A0"));
        assertThat(r.differences().get(2).root()).isEqualTo(Trees.node(neu, "A0/C4/I2"));
    }

    @Test
    void stageTwoSuspectsStartAtTheClosestModifiedAncestor() {
        Cct old = CommonTreeTest.figure3bOld();
        Cct neu = CommonTreeTest.figure3bNew();
        DiffResult r = TreeDiff.compare(old, neu, new ChangeList(new long[] {F}, new long[0], new long[] {A, C}),
                Weight.SELF, 1.0, 0);
        Difference i10 = r.differences().stream().filter(d -> d.stage() == Stage.MODIFIED && !d.inSecond())
                .findFirst().orElseThrow();
        assertThat(i10.suspectMethods()).containsExactly(C, A);
    }

    @Test
    void withoutCodeChangesEveryDifferenceIsASideEffect() {
        DiffResult r = TreeDiff.compare(CommonTreeTest.figure3bOld(), CommonTreeTest.figure3bNew(),
                ChangeList.NONE, Weight.SELF, 1.0, 0);
        assertThat(r.stage(Stage.SIDE_EFFECT)).isEqualTo(new StageSummary(Stage.SIDE_EFFECT, 1, 1, 2, 3));
        assertThat(r.commonTreeSize()).isEqualTo(5);
        // old leaves D2, H5, I10; new leaves D2, G6, I2, H4, one sample each; common: D, H
        assertThat(r.overlapSelf()).isCloseTo(1.0, within(1e-12));
        assertThat(r.score()).isCloseTo(r.overlapSelf() * r.overlapTotal() * 5.0 / 6 * 5.0 / 8 * 100, within(1e-9));
    }

    @Property(tries = 300)
    void everyNodeIsEitherCommonOrRemovedByExactlyOneStage(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 60) int stacks) {
        Cct[] t = Trees.pair(seed, stacks, 5, 4);
        Random r = new Random(seed);
        ChangeList changes = new ChangeList(pick(r), pick(r), pick(r));
        DiffResult d = TreeDiff.compare(t[0], t[1], changes, Weight.TOTAL, 0.99, 0);
        int removedFirst = 0;
        int removedSecond = 0;
        for (StageSummary s : d.stages()) {
            removedFirst += s.nodesFirst();
            removedSecond += s.nodesSecond();
        }
        assertThat(d.commonTreeSize() + removedFirst).isEqualTo(t[0].size() - 1);
        assertThat(d.commonTreeSize() + removedSecond).isEqualTo(t[1].size() - 1);
        for (int x : d.common().matchedInFirst()) {
            assertThat(changes.isAdded(t[0].method(x)) || changes.isDeleted(t[0].method(x))).isFalse();
        }
        for (Difference diff : d.differences()) {
            Cct tree = diff.inSecond() ? t[1] : t[0];
            if (diff.stage() == Stage.MODIFIED) {
                assertThat(diff.suspects()).isNotEmpty();
                for (long m : diff.suspectMethods()) {
                    assertThat(changes.isModified(m)).isTrue();
                }
            } else {
                assertThat(diff.suspects()).containsExactly(tree.parent(diff.root()));
            }
        }
        assertThat(d.overlapSelf()).isBetween(0.0, 1.0);
        assertThat(d.overlapTotal()).isBetween(0.0, 1.0);
    }

    @Property(tries = 200)
    void withoutCodeChangesTheCommonTreeIsTheRelaxedMatching(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 60) int stacks) {
        Cct[] t = Trees.pair(seed, stacks, 5, 3);
        DiffResult d = TreeDiff.compare(t[0], t[1], ChangeList.NONE, Weight.SELF, 1.0, 0);
        CommonTree plain = CommonTree.relaxed(t[0], t[1]);
        assertThat(d.common().matchedInFirst()).isEqualTo(plain.matchedInFirst());
        assertThat(d.stage(Stage.MODIFIED).subtreesFirst() + d.stage(Stage.ADDED).subtreesFirst()).isZero();
    }

    private static long[] pick(Random r) {
        List<Long> ids = new ArrayList<>();
        for (long m = 1; m <= 4; m++) {
            if (r.nextInt(5) == 0) {
                ids.add(m);
            }
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }
}
