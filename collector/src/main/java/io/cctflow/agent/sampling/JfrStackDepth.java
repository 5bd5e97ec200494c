package io.cctflow.agent.sampling;

import java.lang.management.ManagementFactory;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.management.ObjectName;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;

import io.cctflow.agent.log.AgentLog;
import jdk.jfr.FlightRecorder;

/**
 * JFR's stack depth, which can be set only before JFR starts: the agent asks for its own
 * ({@code stackdepth}, default 256) when it is first to start JFR, and says at once when it is
 * not, i.e. JFR was already running at a smaller depth (a JVM started with
 * {@code -XX:StartFlightRecording}, whose recording may still be starting when the agent looks,
 * or an attach to a JVM that records), so stacks will be cut there. Stateless; called once, at start.
 */
final class JfrStackDepth {
    /** JFR's own default, in effect when {@code FlightRecorderOptions} names no depth. */
    static final int JFR_DEFAULT = 64;
    private static final Pattern STACK_DEPTH = Pattern.compile("(?:^|,)stackdepth=(\\d+)");

    private JfrStackDepth() {
    }

    /**
     * Asks JFR for {@code depth}-frame stacks if it has not started yet; else warns when the
     * depth it runs with is smaller. Never throws: samples are useful either way.
     */
    static void request(int depth) {
        try {
            // a JVM started with -XX:StartFlightRecording starts JFR at its own depth, before or
            // while the agent starts: which of the two comes first is a race, the outcome is not
            if (FlightRecorder.isInitialized() || startedWithRecording()) {
                String warning = warningWhenAlreadyRunning(depth, flightRecorderOptions());
                if (warning != null) {
                    AgentLog.warn(warning);
                }
                return;
            }
            // the command echoes the setting whether or not JFR was already running, so its
            // output tells nothing; the truncated-sample counter shows the effect
            ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "jfrConfigure",
                    new Object[] {new String[] {"stackdepth=" + depth}},
                    new String[] {String[].class.getName()});
        } catch (Throwable t) {
            AgentLog.warn("could not set the JFR stack depth to " + depth
                    + " (is JFR already running?); stacks deeper than JFR's limit are truncated", t);
        }
    }

    /**
     * The warning for a JFR that was running before the agent, or null when its depth is enough.
     *
     * @param flightRecorderOptions the JVM's {@code -XX:FlightRecorderOptions} value, may be empty
     */
    static String warningWhenAlreadyRunning(int wanted, String flightRecorderOptions) {
        Matcher m = STACK_DEPTH.matcher(flightRecorderOptions == null ? "" : flightRecorderOptions);
        int inEffect = m.find() ? Integer.parseInt(m.group(1)) : JFR_DEFAULT;
        if (inEffect >= wanted) {
            return null;
        }
        return "JFR was already running when the agent started, with a stack depth of " + inEffect
                + " frames, which cannot change now: deeper stacks are truncated (the batches' stats"
                + " count them); restart the JVM with -XX:FlightRecorderOptions:stackdepth=" + wanted;
    }

    /** Whether the JVM was started with {@code -XX:StartFlightRecording}; false where it cannot tell. */
    private static boolean startedWithRecording() {
        try {
            return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .getVMOption("StartFlightRecording").getOrigin() != VMOption.Origin.DEFAULT;
        } catch (RuntimeException e) { // a JVM without the flag
            return false;
        }
    }

    private static String flightRecorderOptions() {
        return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("FlightRecorderOptions").getValue();
    }
}
