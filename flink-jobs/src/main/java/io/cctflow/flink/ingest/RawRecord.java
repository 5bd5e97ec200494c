package io.cctflow.flink.ingest;

/**
 * A Kafka record as it arrived, before decoding, so that one that cannot be decoded can be
 * dead-lettered byte for byte. A Flink POJO: public fields, no-arg constructor.
 */
public class RawRecord {
    public String topic;
    public int partition;
    public long offset;
    public byte[] key;
    public byte[] value;

    public RawRecord() {
    }

    public RawRecord(String topic, int partition, long offset, byte[] key, byte[] value) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.key = key;
        this.value = value;
    }

    /** Where the record came from, for error messages: {@code topic/partition@offset}. */
    public String origin() {
        return topic + "/" + partition + "@" + offset;
    }
}
