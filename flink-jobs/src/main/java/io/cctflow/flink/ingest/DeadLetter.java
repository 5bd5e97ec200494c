package io.cctflow.flink.ingest;

/** A record that could not be used, with the reason. A Flink POJO. */
public class DeadLetter {
    public RawRecord record;
    public String reason;

    public DeadLetter() {
    }

    public DeadLetter(RawRecord record, String reason) {
        this.record = record;
        this.reason = reason;
    }
}
