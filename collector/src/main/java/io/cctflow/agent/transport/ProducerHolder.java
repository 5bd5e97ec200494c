package io.cctflow.agent.transport;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.RetriableException;

/**
 * The agent's one Kafka producer, created on first use by a sender thread, and again on a later
 * use when creating it failed. {@code KafkaProducer}'s constructor fails when none of the bootstrap
 * servers resolves (kafka-clients 4.2: {@code ConfigException: No resolvable bootstrap urls}), as
 * when a pod starts before its DNS answers; created once at start-up, such a failure would leave
 * the JVM unprofiled for its whole life. Here it is Kafka being away like any other: the batches
 * wait in the send queue and the sender retries with its backoff.
 *
 * <p>Creation runs outside the lock (a DNS lookup may take seconds), so {@link #close} never
 * waits for it; a producer created after {@link #close} is closed at once.
 *
 * <p>Thread-safe.
 */
public final class ProducerHolder {
    /** How long {@link #brokerAccepts} waits for each bootstrap server's TCP handshake. */
    static final int PROBE_TIMEOUT_MILLIS = 1_000;

    private final Supplier<Producer<String, byte[]>> factory;
    private final String servers;
    private final BooleanSupplier brokerAccepts;

    // guarded by this
    private Producer<String, byte[]> producer;
    private boolean creating;
    private boolean closed;

    /**
     * @param factory creates the producer; may throw when it cannot now
     * @param servers the bootstrap servers, for messages
     */
    public ProducerHolder(Supplier<Producer<String, byte[]>> factory, String servers) {
        this(factory, servers, () -> BrokerProbe.anyAccepts(servers, PROBE_TIMEOUT_MILLIS));
    }

    /**
     * @param brokerAccepts whether a bootstrap server accepts connections now (see
     *     {@link #brokerAccepts}); called on the sender thread, may block briefly
     */
    public ProducerHolder(Supplier<Producer<String, byte[]>> factory, String servers, BooleanSupplier brokerAccepts) {
        this.factory = factory;
        this.servers = servers;
        this.brokerAccepts = brokerAccepts;
    }

    /**
     * A holder of a producer that already exists (tests, tools). Its broker counts as away
     * whenever a send fails ({@link #brokerAccepts} is false): nothing is known of its servers.
     */
    public static ProducerHolder of(Producer<String, byte[]> producer) {
        return of(producer, () -> false);
    }

    /** As {@link #of(Producer)}, with {@code brokerAccepts} saying whether the broker is there. */
    public static ProducerHolder of(Producer<String, byte[]> producer, BooleanSupplier brokerAccepts) {
        ProducerHolder holder = new ProducerHolder(() -> producer, "(given)", brokerAccepts);
        holder.producer = producer;
        return holder;
    }

    /**
     * Whether a bootstrap server accepts a TCP connection now: when a send failed, this tells a
     * Kafka that is away from one that is slow to answer. May block for a DNS lookup and a
     * connection attempt per server ({@value #PROBE_TIMEOUT_MILLIS} ms at most each).
     */
    public boolean brokerAccepts() {
        return brokerAccepts.getAsBoolean();
    }

    /**
     * The producer, created now if there is none yet.
     *
     * @throws Unavailable when it cannot be created now (retriable: try again after a backoff),
     *     or another thread is creating it
     * @throws IllegalStateException after {@link #close}
     */
    public Producer<String, byte[]> get() {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the Kafka producer is closed");
            }
            if (producer != null) {
                return producer;
            }
            if (creating) {
                throw new Unavailable("another thread is creating the Kafka producer", null);
            }
            creating = true;
        }
        Producer<String, byte[]> created = null;
        boolean closedMeanwhile;
        try {
            created = factory.get();
        } catch (RuntimeException e) {
            throw new Unavailable("cannot create the Kafka producer for " + servers + ": "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()), e);
        } finally {
            synchronized (this) {
                creating = false;
                closedMeanwhile = closed;
                if (!closed) {
                    producer = created;
                }
            }
        }
        if (closedMeanwhile) {
            created.close(Duration.ZERO);
            throw new IllegalStateException("the Kafka producer is closed");
        }
        return created;
    }

    /** Closes the producer, if one was created, waiting at most {@code timeout}. Idempotent. */
    public void close(Duration timeout) {
        Producer<String, byte[]> p;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            p = producer;
        }
        if (p != null) {
            p.close(timeout);
        }
    }

    /** Whether {@link #close} was called. */
    public synchronized boolean isClosed() {
        return closed;
    }

    /** The producer cannot be had now; the sender treats this as Kafka being away. */
    public static final class Unavailable extends RetriableException {
        private static final long serialVersionUID = 1L;

        Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
