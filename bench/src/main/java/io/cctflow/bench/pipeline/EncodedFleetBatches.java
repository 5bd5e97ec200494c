package io.cctflow.bench.pipeline;

import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.SampleBatch;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * The fleet's batches as the bytes the agent publishes (Avro single-object encoding of a {@link
 * SampleBatch}), at a fraction of the cost of building and encoding each one: a pool of batch
 * bodies (method dictionary, stacks, no stats) drawn by {@link FleetBatches} and encoded once, and
 * per batch only its head (instance, window, sequence, sampling period) encoded and prepended. The
 * generator shares the machine's two cores with the pipeline it measures, so what it saves goes to
 * the pipeline. Every batch decodes to a valid {@code SampleBatch} of {@link #samplesPerBatch()}
 * samples; the bodies repeat (one of {@code poolSize}, drawn at random per batch).
 *
 * <p>Not thread-safe: one instance per generating thread (the output buffer is reused).
 */
public final class EncodedFleetBatches {
    private static final int SINGLE_OBJECT_HEADER = 10; // marker C3 01 + 8-byte schema fingerprint

    private final byte[][] bodies;
    private final byte[] header;
    private final int samplesPerBatch;
    private final int periodMillis;
    private final Random random;
    private final SpecificDatumWriter<InstanceInfo> instanceWriter = new SpecificDatumWriter<>(InstanceInfo.class);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 18);
    private BinaryEncoder encoder;

    /**
     * @param batches draws the bodies ({@code poolSize} batches of it)
     * @param poolSize distinct bodies, at least 1
     */
    public EncodedFleetBatches(FleetBatches batches, int poolSize, Random random) {
        if (poolSize < 1) {
            throw new IllegalArgumentException("poolSize must be >= 1, was " + poolSize);
        }
        this.samplesPerBatch = batches.samplesPerBatch();
        this.periodMillis = batches.periodMillis();
        this.random = random;
        this.bodies = new byte[poolSize][];
        InstanceInfo any = FleetBatches.instance("pool", 0, 0);
        byte[] first = null;
        for (int i = 0; i < poolSize; i++) {
            SampleBatch batch = batches.next(any, 0, 0, 0);
            byte[] full = bytes(encodeOrFail(batch));
            // the head is what encode() writes for the same values; the rest is the body
            int head = encodeHead(new byte[SINGLE_OBJECT_HEADER], any, 0, 0, 0).length;
            bodies[i] = Arrays.copyOfRange(full, head, full.length);
            first = first == null ? full : first;
        }
        this.header = Arrays.copyOf(first, SINGLE_OBJECT_HEADER);
    }

    /** Samples in every batch. */
    public int samplesPerBatch() {
        return samplesPerBatch;
    }

    /** One batch of {@code instance} for [windowStart, windowEnd), encoded as the agent sends it. */
    public byte[] encode(InstanceInfo instance, long sequence, long windowStartMillis, long windowEndMillis) {
        byte[] head = encodeHead(header, instance, windowStartMillis, windowEndMillis, sequence);
        byte[] body = bodies[random.nextInt(bodies.length)];
        byte[] batch = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, batch, head.length, body.length);
        return batch;
    }

    private byte[] encodeHead(byte[] singleObjectHeader, InstanceInfo instance, long start, long end, long sequence) {
        try {
            out.reset();
            out.write(singleObjectHeader);
            encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
            instanceWriter.write(instance, encoder);
            encoder.writeLong(start);
            encoder.writeLong(end);
            encoder.writeLong(sequence);
            encoder.writeInt(periodMillis);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ByteBuffer encodeOrFail(SampleBatch batch) {
        try {
            return batch.toByteBuffer();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] b = new byte[buffer.remaining()];
        buffer.get(b);
        return b;
    }
}
