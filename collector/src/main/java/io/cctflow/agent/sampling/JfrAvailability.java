package io.cctflow.agent.sampling;

import io.cctflow.agent.log.AgentLog;
import jdk.jfr.FlightRecorder;

/**
 * Tells whether this JVM can record with JDK Flight Recorder. Kept apart from
 * {@link JfrSampler} so that it loads even in a runtime without the {@code jdk.jfr} module (a
 * jlinked image): the only JFR reference is inside the guarded call. Stateless, thread-safe.
 */
public final class JfrAvailability {
    private JfrAvailability() {
    }

    /** Why JFR cannot be used here, or null when it can. */
    public static String unavailableReason() {
        try {
            if (FlightRecorder.isAvailable()) {
                return null;
            }
            return "FlightRecorder.isAvailable() is false: it was disabled, e.g. with"
                    + " -XX:-FlightRecorder, or this JVM was built without it";
        } catch (LinkageError e) {
            return "the module jdk.jfr is missing from this runtime: " + AgentLog.describe(e);
        } catch (Throwable t) {
            return AgentLog.describe(t);
        }
    }

    /**
     * Initialises JDK Flight Recorder in this JVM, first asking for {@code stackDepth}-frame
     * stacks (a depth JFR takes only before it is initialised), without starting a recording; for
     * {@code premain}, before the host's {@code main} runs. Why: JFR's initialisation gives the
     * JVM the capability to retransform classes, and that change throws away the compilations
     * in flight and code compiled under assumptions it breaks. At {@code premain} that costs the
     * host nothing but the time JFR's start-up takes there (as with
     * {@code -XX:StartFlightRecording}); done later, on the agent's thread, it hit a host whose
     * hot code the JIT was compiling, and left it a few per cent slower in some JVMs (see
     * bench/README.md). Does nothing when JFR is unavailable, which the sampler reports when it
     * starts. Never throws.
     *
     * @return how long it took in milliseconds; -1 when there was nothing to initialise (JFR
     *     unavailable, or already initialised, e.g. by {@code -XX:StartFlightRecording}: then a
     *     smaller stack depth than asked for is reported at once)
     */
    public static long initialise(int stackDepth) {
        if (unavailableReason() != null) {
            return -1;
        }
        long start = System.nanoTime();
        try {
            boolean already = FlightRecorder.isInitialized();
            JfrStackDepth.request(stackDepth);
            if (already) {
                return -1;
            }
            FlightRecorder.getFlightRecorder();
        } catch (Throwable t) {
            // the sampler starts its recording later and reports what fails then
            return -1;
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    /** Reports, once per call, that the agent does nothing because JFR is not available. */
    public static void reportUnavailable(String reason) {
        AgentLog.warn("JFR is not available in this JVM (" + reason + "); the agent does nothing");
    }
}
