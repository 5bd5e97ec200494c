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

    /** Reports, once per call, that the agent does nothing because JFR is not available. */
    public static void reportUnavailable(String reason) {
        AgentLog.warn("JFR is not available in this JVM (" + reason + "); the agent does nothing");
    }
}
