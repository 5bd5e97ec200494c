package io.cctflow.flink.cct;

import io.cctflow.model.MethodRecord;

/**
 * A truncated stack of a batch (JFR cut its root-most frames) with what is needed to merge it
 * later: its frames with their method names (the batch's dictionary is gone by then), its thread,
 * count, and the batch's event time, whose window its samples belong to. A Flink POJO, kept in
 * keyed state while pending.
 */
public class TruncatedStack {
    /** Event time of the batch it came in: its samples count in that window. */
    public long eventTimeMillis;
    /** Processing time it went pending, for the age bound. */
    public long pendingSinceMillis;
    /** Method ids, outermost known frame first. */
    public long[] methods;
    /** Call-site lines; the first is meaningless (its caller was cut). */
    public int[] lines;
    public String[] classNames;
    public String[] methodNames;
    public String[] descriptors;
    public String thread;
    public long count;
    /** Names its later outcome in its window ({@link ContributionIds#ofTruncatedStack}). */
    public long id;

    public TruncatedStack() {
    }

    public int depth() {
        return methods.length;
    }

    /** The method record of frame {@code i}. */
    public MethodRecord method(int i) {
        return new MethodRecord(methods[i], classNames[i], methodNames[i], descriptors[i]);
    }
}
