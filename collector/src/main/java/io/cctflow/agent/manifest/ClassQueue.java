package io.cctflow.agent.manifest;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounded hand-over from class-loading threads to the fingerprinting thread, bounded by the
 * bytes of the class files it holds. Drop policy: a class that does not fit is refused (the caller
 * counts it); what is queued is never dropped. {@link #offer} never blocks.
 *
 * <p>Thread safety: {@link #offer} and {@link #wake} from any thread; {@link #poll} from one
 * consumer.
 */
final class ClassQueue {
    private final long maxBytes;
    private final AtomicLong bytes = new AtomicLong();
    private final LinkedBlockingQueue<ObservedClass> queue = new LinkedBlockingQueue<>();
    // queued by wake(); never handed out
    private final ObservedClass wakeUp = new ObservedClass("cctflow/WakeUp", new byte[0], null);

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

    /**
     * The oldest class, waiting up to {@code timeout} for one; null if none came, or none was
     * queued when {@link #wake} was called.
     */
    ObservedClass poll(long timeout, TimeUnit unit) throws InterruptedException {
        ObservedClass c = queue.poll(timeout, unit);
        if (c == wakeUp) {
            c = queue.poll(); // a class queued behind the wake-up, or null: no more waiting
        }
        if (c != null) {
            bytes.addAndGet(-c.bytes().length);
        }
        return c;
    }

    /** Makes a waiting (or the next) {@link #poll} return null at once. Any thread. */
    void wake() {
        queue.add(wakeUp);
    }

    /** Bytes queued now. */
    long bytes() {
        return bytes.get();
    }
}
