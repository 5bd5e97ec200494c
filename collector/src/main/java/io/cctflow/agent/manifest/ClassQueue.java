package io.cctflow.agent.manifest;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounded hand-over from class-loading threads to the fingerprinting thread, bounded by the
 * bytes of the class files it holds. Drop policy: a class that does not fit is refused (the caller
 * counts it); what is queued is never dropped. {@link #offer} never blocks.
 *
 * <p>Thread safety: {@link #offer} from any thread; {@link #poll} from one consumer.
 */
final class ClassQueue {
    private final long maxBytes;
    private final AtomicLong bytes = new AtomicLong();
    private final LinkedBlockingQueue<ObservedClass> queue = new LinkedBlockingQueue<>();

    ClassQueue(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Queues the class unless its bytes would exceed the bound; false if refused. */
    boolean offer(ObservedClass c) {
        long size = c.bytes().length;
        if (bytes.addAndGet(size) > maxBytes) {
            bytes.addAndGet(-size);
            return false;
        }
        queue.add(c);
        return true;
    }

    /** The oldest class, waiting up to {@code timeout} for one; null if none came. */
    ObservedClass poll(long timeout, TimeUnit unit) throws InterruptedException {
        ObservedClass c = queue.poll(timeout, unit);
        if (c != null) {
            bytes.addAndGet(-c.bytes().length);
        }
        return c;
    }

    /** Bytes queued now. */
    long bytes() {
        return bytes.get();
    }
}
