package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MachineCpuTest {

    @Test
    void busyTicksCountEverythingButIdleAndIowaitAndStealCounts() {
        // user nice system idle iowait irq softirq steal guest guest_nice
        assertThat(MachineCpu.busyAndStolenTicks("cpu  6285320 101876 365742 2270255 10288 0 9959 8728 0 0"))
                .isEqualTo(6285320L + 101876 + 365742 + 9959 + 8728);
        assertThatThrownBy(() -> MachineCpu.busyAndStolenTicks("cpu0 1 2 3 4 5 6 7 8"))
                .hasMessageContaining("'cpu0 1 2 3 4 5 6 7 8'");
    }

    @Test
    void processTicksAreUserPlusSystemCountedAfterANameWithSpaces() {
        String stat = "4616 (C2 Compiler) x) R 4612 4612 8527 0 -1 4194304 128 0 0 0 250 31 0 0 20 0 1 0";
        assertThat(MachineCpu.processTicks(stat)).isEqualTo(281);
        assertThatThrownBy(() -> MachineCpu.processTicks("4616 (cat) R 1")).hasMessageContaining("(cat)");
    }

    @Test
    void othersAreTheMachinesTicksLessOursNeverNegative() {
        MachineCpu.Snapshot before = new MachineCpu.Snapshot(1_000, 400);
        assertThat(new MachineCpu.Snapshot(1_150, 500).othersNanosSince(before)).isEqualTo(50 * MachineCpu.TICK_NANOS);
        // ticks are sampled separately: ours can run ahead of the machine's by a tick
        assertThat(new MachineCpu.Snapshot(1_100, 501).othersNanosSince(before)).isZero();
    }

    @Test
    void aSnapshotOfThisMachineSeesThisProcessWorking() {
        MachineCpu.Snapshot s = MachineCpu.take();
        // this JVM has compiled and run tests by now: more than one tick, and the machine at least as much
        assertThat(s.ourTicks()).isPositive();
        assertThat(s.machineTicks()).isGreaterThanOrEqualTo(s.ourTicks());
    }
}
