package io.cctflow.schema;

/**
 * The size limits of the agents' records (sample batches and code manifests), in one place for
 * the agents' producer, the topics that carry the records, and the job's consumer. The Kubernetes
 * topics ({@code k8s/kafka/topics.yaml}) repeat {@link #TOPIC_MAX_MESSAGE_BYTES}; a test of the
 * k8s module checks they agree.
 */
public final class RecordSizes {

    /**
     * The largest record an agent sends: its producer's {@code max.request.size}, 4 MiB. Kafka
     * checks it on the record before compression; deep stacks make big batches.
     */
    public static final int MAX_RECORD_BYTES = 4 << 20;

    /**
     * {@code max.message.bytes} of the samples and manifests topics: 5 MiB. The broker checks it on
     * the compressed record batch, which for incompressible content is the record plus gzip's and
     * the batch's headers; the broker's default (1 MiB) refused batches the agents may send.
     */
    public static final int TOPIC_MAX_MESSAGE_BYTES = MAX_RECORD_BYTES + (1 << 20);

    private RecordSizes() {
    }
}
