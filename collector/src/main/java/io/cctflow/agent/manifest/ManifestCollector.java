package io.cctflow.agent.manifest;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.ByteBuffer;
import java.security.ProtectionDomain;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.cctflow.agent.log.AgentLog;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.schema.CodeManifest;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodFingerprint;

/**
 * Fingerprints the code the host loads and publishes it as incremental {@link CodeManifest}s.
 *
 * <p>Two ways in. Classes defined after {@link #start} reach the {@link ClassObserver}, a
 * transformer that never transforms and only queues a copy of the class file. Classes already
 * loaded at start (few with {@code -javaagent}, all of them when attached at runtime) are found
 * with {@link Instrumentation#getAllLoadedClasses()} and their class files read through their
 * class loader as resources ({@code com/acme/Foo.class}). That is a choice: retransforming them
 * with a null-returning transformer would also hand over bytes, but HotSpot runs them through its
 * class redefinition (a RedefineClasses VM operation at a safepoint, which may deoptimise compiled
 * code that depends on the classes) and the bytes are reconstituted from the loaded class, not the
 * original file: a cost to the host this agent must not impose. The price of reading resources: a class with
 * no resource (generated at runtime, a proxy) is counted unreadable, and a class another agent
 * transformed is fingerprinted as its original file.
 *
 * <p>One daemon thread, {@value #THREAD_NAME}, does all parsing and hashing
 * ({@link ClassFingerprints}), keeps the names of the classes it has published (a class defined
 * twice, by two loaders or seen both ways, is published once, by the first), and hands a manifest
 * with the classes not yet published to the sink every {@code publishMillis} while there are any,
 * or at once when {@value #MAX_METHODS} methods are waiting (bounding one record's size).
 *
 * <p>Thread safety: {@link #start} and {@link #close} from one controlling thread.
 */
public final class ManifestCollector {
    /** Name of the fingerprinting thread. */
    public static final String THREAD_NAME = "cctflow-manifest";
    /** Methods in one manifest at most: about 100 bytes each encoded, so under 1 MiB. */
    static final int MAX_METHODS = 10_000;
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Wait for a class when none is pending; {@link #close} wakes the thread sooner. */
    private static final long IDLE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** Receives finished manifests; must not block and should not throw. */
    @FunctionalInterface
    public interface Sink {
        void send(CodeManifest manifest);
    }

    private final Instrumentation instrumentation;
    private final ClassFilter filter;
    private final ClassQueue queue;
    private final ManifestCounters counters = new ManifestCounters();
    private final ClassObserver observer;
    private final InstanceInfo instance;
    private final Sink sink;
    private final LongSupplier manifestsDropped;
    private final long publishNanos;
    private final LongSupplier nanoClock;
    private final RateLimitedLog log;
    private final Thread thread;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);

    // fingerprinting thread only
    private final Set<String> published = new HashSet<>();
    private final List<MethodFingerprint> pending = new ArrayList<>();
    private int pendingClasses;
    private long sequence;
    private volatile long stopDeadlineNanos = Long.MAX_VALUE;

    /**
     * @param maxQueuedBytes bound on class-file bytes waiting to be fingerprinted
     * @param manifestsDropped the number of manifests the sink lost so far
     * @param publishMillis interval between manifests while new classes arrive
     */
    public ManifestCollector(Instrumentation instrumentation, ClassFilter filter, long maxQueuedBytes,
            InstanceInfo instance, Sink sink, LongSupplier manifestsDropped, long publishMillis,
            LongSupplier nanoClock, RateLimitedLog log) {
        this.instrumentation = instrumentation;
        this.filter = filter;
        this.queue = new ClassQueue(maxQueuedBytes);
        this.observer = new ClassObserver(filter, queue, counters);
        this.instance = instance;
        this.sink = sink;
        this.manifestsDropped = manifestsDropped;
        this.publishNanos = TimeUnit.MILLISECONDS.toNanos(publishMillis);
        this.nanoClock = nanoClock;
        this.log = log;
        this.thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
    }

    /** Registers the observer and starts the fingerprinting thread, which first reads the classes already loaded. */
    public void start() {
        warmUp();
        instrumentation.addTransformer(observer, false);
        thread.start();
    }

    /**
     * Loads the classes the observer's path needs before it is registered, so its first calls do
     * not load classes from inside the class-loading hook.
     */
    private void warmUp() {
        ObservedClass probe = new ObservedClass("warm/Up", new byte[0], null);
        filter.includes(probe.internalName());
        queue.offer(probe);
        try {
            queue.poll(0, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            readLoadedClasses();
            long nextPublish = nanoClock.getAsLong() + publishNanos;
            while (stopping.getCount() > 0) {
                // with nothing to publish, sleep until a class arrives or close() wakes us: an
                // idle agent must not wake up ten times a second; else at most POLL_NANOS
                long wait = pendingClasses == 0 ? IDLE_WAIT_NANOS
                        : Math.max(1, Math.min(POLL_NANOS, nextPublish - nanoClock.getAsLong()));
                ObservedClass c = queue.poll(wait, TimeUnit.NANOSECONDS);
                if (c != null) {
                    if (pendingClasses == 0 && nanoClock.getAsLong() - nextPublish >= 0) {
                        // the first class after a quiet spell waits one interval for company
                        nextPublish = nanoClock.getAsLong() + publishNanos;
                    }
                    fingerprintObserved(c);
                }
                if (pending.size() >= MAX_METHODS) {
                    publish();
                }
                if (nanoClock.getAsLong() - nextPublish >= 0) {
                    publish();
                    nextPublish = nanoClock.getAsLong() + publishNanos;
                }
            }
            drainUntil(stopDeadlineNanos);
        } catch (InterruptedException e) {
            // close() gave up waiting: publish what is done
        } catch (Throwable t) {
            log.warn("fingerprinting stopped; no more code manifests", t);
        } finally {
            publish();
            finished.countDown();
        }
    }

    /** Fingerprints what is still queued at shutdown, until the deadline. */
    private void drainUntil(long deadlineNanos) throws InterruptedException {
        ObservedClass c;
        while (nanoClock.getAsLong() - deadlineNanos < 0 && (c = queue.poll(0, TimeUnit.NANOSECONDS)) != null) {
            fingerprintObserved(c);
            if (pending.size() >= MAX_METHODS) {
                publish();
            }
        }
    }

    private void readLoadedClasses() throws InterruptedException {
        for (Class<?> c : instrumentation.getAllLoadedClasses()) {
            if (stopping.getCount() == 0) {
                return;
            }
            // keep the queue moving while the (possibly long) sweep runs, so it drops nothing
            ObservedClass observed = queue.poll(0, TimeUnit.NANOSECONDS);
            if (observed != null) {
                fingerprintObserved(observed);
            }
            if (c.isArray() || c.isPrimitive() || c.isHidden()) {
                continue;
            }
            String internalName = c.getName().replace('.', '/');
            if (!filter.includes(internalName) || published.contains(c.getName())
                    || !ClassFilter.fromClassFile(c.getClassLoader(), protectionDomain(c))) {
                continue;
            }
            counters.classSeen();
            byte[] bytes = ClassFiles.read(c.getClassLoader(), internalName);
            if (bytes == null) {
                counters.classUnreadable();
            } else {
                fingerprint(internalName, bytes);
            }
            if (pending.size() >= MAX_METHODS) {
                publish();
            }
        }
    }

    private static ProtectionDomain protectionDomain(Class<?> c) {
        try {
            return c.getProtectionDomain();
        } catch (RuntimeException e) {
            return null; // a security manager refused: treated as a class without a code source
        }
    }

    /**
     * Fingerprints a class the observer queued if its loader has it as a class file; one without
     * (generated at run time with a code source, e.g. by a language's compiler or JIT) is counted
     * as unreadable, as the sweep of loaded classes counts it.
     */
    private void fingerprintObserved(ObservedClass c) {
        if (published.contains(c.internalName().replace('/', '.'))) {
            return;
        }
        if (ClassFiles.exists(c.loader(), c.internalName())) {
            fingerprint(c.internalName(), c.bytes());
        } else {
            counters.classUnreadable();
        }
    }

    private void fingerprint(String internalName, byte[] bytes) {
        String name = internalName.replace('/', '.');
        if (published.contains(name)) {
            return;
        }
        long start = nanoClock.getAsLong();
        ClassFingerprints fingerprints;
        try {
            fingerprints = ClassFingerprints.of(bytes);
        } catch (IllegalArgumentException e) {
            counters.classUnreadable();
            log.warn("cannot fingerprint " + name + ": " + e.getMessage());
            return;
        }
        counters.classFingerprinted(bytes.length, nanoClock.getAsLong() - start);
        published.add(name);
        pending.addAll(fingerprints.methods());
        pendingClasses++;
    }

    /** Hands the classes not yet published to the sink as one manifest. */
    private void publish() {
        if (pendingClasses == 0) {
            return;
        }
        counters.classesPublished(pendingClasses);
        CodeManifest manifest = CodeManifest.newBuilder()
                .setService(instance.getService())
                .setVersion(instance.getVersion())
                .setInstanceId(instance.getInstanceId())
                .setSequence(sequence++)
                .setMethods(new ArrayList<>(pending))
                .setClasses(pendingClasses)
                .setStats(counters.snapshot(manifestsDropped.getAsLong()))
                .build();
        pending.clear();
        pendingClasses = 0;
        try {
            sink.send(manifest);
        } catch (RuntimeException e) {
            log.warn("manifest " + manifest.getSequence() + " lost", e);
        }
    }

    /**
     * Stops observing, fingerprints what is still queued and publishes the rest, within
     * {@code budget}. Idempotent.
     */
    public void close(Duration budget) {
        if (stopping.getCount() == 0) {
            return;
        }
        long deadline = nanoClock.getAsLong() + budget.toNanos();
        try {
            instrumentation.removeTransformer(observer);
        } catch (RuntimeException e) {
            AgentLog.warn("could not remove the class observer", e);
        }
        stopDeadlineNanos = deadline - budget.toNanos() / 4;
        stopping.countDown();
        queue.wake();
        try {
            if (thread.isAlive() && !finished.await(Math.max(0, deadline - nanoClock.getAsLong()),
                    TimeUnit.NANOSECONDS)) {
                thread.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Encodes a manifest for the send queue. */
    public static byte[] encode(CodeManifest manifest) throws IOException {
        ByteBuffer buffer = manifest.toByteBuffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
