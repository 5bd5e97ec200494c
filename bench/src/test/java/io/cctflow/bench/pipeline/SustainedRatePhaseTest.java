package io.cctflow.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The sustained verdict on lag readings every 2 s over 120 s, as the steady phase takes them, with
 * a tolerance of 1,000 batches (the benchmark's: one checkpoint interval's batches): the committed
 * offsets move in steps at checkpoints, so a job that keeps up shows a saw-tooth.
 */
class SustainedRatePhaseTest {
    private static final double TOLERANCE = 1_000;
    /** Batches produced per second. */
    private static final long RATE = 1_000;

    /**
     * Readings every 2 s for 120 s: the producer writes {@link #RATE} batches a second, the job has
     * committed {@code read(t)} batches by second t (capped at what was produced).
     */
    private static List<ConsumerLag.Snapshot> readings(long backlog, LongUnaryOperator read) {
        List<ConsumerLag.Snapshot> lags = new ArrayList<>();
        for (long t = 0; t <= 120; t += 2) {
            long end = backlog + RATE * t;
            lags.add(new ConsumerLag.Snapshot(end, Math.min(end, read.applyAsLong(t)), t * 1_000_000_000L));
        }
        return lags;
    }

    @Test
    void aJobThatKeepsUpIsSustained() {
        var v = SustainedRatePhase.verdict(readings(800, t -> RATE * t - 500 * (t % 4 == 0 ? 1 : 0)), TOLERANCE, 0);
        assertThat(v.sustained()).isTrue();
        assertThat(Math.abs(v.netGrowth())).isLessThan(1_000);
    }

    @Test
    void aJobDrainingItsBacklogIsSustained() {
        var v = SustainedRatePhase.verdict(readings(2_000, t -> 1_150 * t), TOLERANCE, 0);
        assertThat(v.sustained()).isTrue();
        assertThat(v.netGrowth()).isLessThan(0);
    }

    @Test
    void aJobFallingBehindSteadilyIsNot() {
        // 85 % of the rate: the lag grows by 150 batches a second, 18,000 over the phase
        var v = SustainedRatePhase.verdict(readings(2_000, t -> 850 * t), TOLERANCE, 0);
        assertThat(v.sustained()).isFalse();
        assertThat(v.trendGrowth()).isGreaterThan(TOLERANCE);
    }

    /**
     * After a cold start: the job stalls for the first 16 s (compiling), which lets the lag jump by
     * 1,600 batches, then it keeps up at a little under the rate. The least-squares trend over the
     * whole phase stays under one checkpoint interval; the lag from the first reading to the last
     * grows by 1,808. The trend alone called such runs sustained; they are not.
     */
    @Test
    void aJumpAfterAColdStartThatIsNeverCaughtUpIsNot() {
        var v = SustainedRatePhase.verdict(readings(2_000, t -> t < 16 ? 900 * t : 900 * 16 + 998 * (t - 16)),
                TOLERANCE, 0);
        assertThat(v.trendGrowth()).as("the trend alone would pass it").isLessThan(TOLERANCE);
        assertThat(v.netGrowth()).isGreaterThanOrEqualTo(1_000);
        assertThat(v.sustained()).isFalse();
    }

    @Test
    void aGeneratorBehindItsScheduleIsNotSustainedWhateverTheLag() {
        assertThat(SustainedRatePhase.verdict(readings(800, t -> RATE * t), TOLERANCE, 1).sustained()).isFalse();
    }

    @Test
    void theTrendIsTheLeastSquaresSlope() {
        List<ConsumerLag.Snapshot> lags = List.of(new ConsumerLag.Snapshot(10, 0, 0),
                new ConsumerLag.Snapshot(30, 0, 1_000_000_000L), new ConsumerLag.Snapshot(50, 20, 2_000_000_000L));
        // lags 10, 30, 30 at 0, 1, 2 s: slope 10 batches/s
        assertThat(SustainedRatePhase.slopePerSecond(lags)).isEqualTo(10.0);
        assertThat(SustainedRatePhase.verdict(lags, TOLERANCE, 0).netGrowth()).isEqualTo(20);
    }
}
