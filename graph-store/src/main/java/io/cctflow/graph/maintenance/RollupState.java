package io.cctflow.graph.maintenance;

import io.cctflow.model.Resolution;

/**
 * How far roll-ups have got, stored on one {@code (:RollupState {name: 'rollups'})} node.
 *
 * @param hourDoneUntil every settled hour before this (epoch millis, hour-aligned) is rolled up
 * @param dayDoneUntil every day before this (day-aligned) is rolled up from its hours
 * @param slotsDoneUntil every settled ten-minute slot before this (slot-aligned; at or after {@code
 *     hourDoneUntil} for those of hours not settled yet) has its deployments' ten-minute and minute sums
 * @param minutesDoneUntil every minute settled by the minute settle before this (minute-aligned;
 *     at or after {@code slotsDoneUntil} for those of slots not settled yet) has its deployments'
 *     minute sums
 * @param lastPassMillis database time at which the last pass began (minus a margin); fine windows
 *     written since then are checked for late arrivals in rolled-up hours, slots and minutes
 */
public record RollupState(long hourDoneUntil, long dayDoneUntil, long slotsDoneUntil, long minutesDoneUntil,
        long lastPassMillis) {
    /** Before the first pass: nothing rolled up, every fine window is new. */
    public static final RollupState NONE = new RollupState(Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE,
            Long.MIN_VALUE, Long.MIN_VALUE);

    /**
     * Whether the minute sums of the minute starting at {@code minute} were written by an earlier
     * pass (by its slot's roll-up, or its own while the slot was not settled), as far as this state
     * says: a fine window written since then may still have changed them.
     */
    boolean minuteDone(long minute) {
        return minute < minutesDoneUntil || slotDone(minute);
    }

    /**
     * Whether the ten-minute sums of the slot {@code minute} lies in were written by an earlier pass
     * (its hour's roll-up or its own), as far as this state says.
     */
    boolean slotDone(long minute) {
        long slot = Resolution.TEN_MINUTES.floor(minute);
        return slot < hourDoneUntil || slot + Resolution.TEN_MINUTES.millis() <= slotsDoneUntil;
    }
}
