package io.cctflow.graph.maintenance;

/**
 * How far roll-ups have got, stored on one {@code (:RollupState {name: 'rollups'})} node.
 *
 * @param hourDoneUntil every settled hour before this (epoch millis, hour-aligned) is rolled up
 * @param dayDoneUntil every day before this (day-aligned) is rolled up from its hours
 * @param slotsDoneUntil every settled ten-minute slot before this (slot-aligned; at or after {@code
 *     hourDoneUntil} for those of hours not settled yet) has its deployments' ten-minute and minute sums
 * @param lastPassMillis database time at which the last pass began (minus a margin); fine windows
 *     written since then are checked for late arrivals in rolled-up hours and slots
 */
public record RollupState(long hourDoneUntil, long dayDoneUntil, long slotsDoneUntil, long lastPassMillis) {
    /** Before the first pass: nothing rolled up, every fine window is new. */
    public static final RollupState NONE = new RollupState(Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE,
            Long.MIN_VALUE);
}
