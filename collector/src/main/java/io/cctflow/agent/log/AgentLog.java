package io.cctflow.agent.log;

/**
 * The agent's only way to speak: one line per message on the host's {@code stderr}, each
 * prefixed with {@value #PREFIX} so operators can grep it out of the application's own output.
 *
 * <p>The agent deliberately uses no logging framework: it must not initialise, configure or
 * compete with the host's. Throwables are rendered as {@code toString()} only, never as stack
 * traces, so a failing agent cannot flood the host's logs.
 *
 * <p>Thread safety: all methods may be called from any thread.
 */
public final class AgentLog {
    /** Prefix of every line the agent writes. */
    public static final String PREFIX = "[cctflow-agent] ";

    private AgentLog() {
    }

    /** Logs an informational line. */
    public static void info(String message) {
        System.err.println(PREFIX + message);
    }

    /** Logs a warning line. */
    public static void warn(String message) {
        System.err.println(PREFIX + "WARN " + message);
    }

    /** Logs a warning line that names the failure, without a stack trace. */
    public static void warn(String message, Throwable failure) {
        warn(message + ": " + describe(failure));
    }

    /** A one-line description of a throwable: its type, message and, if any, its root cause. */
    public static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == failure ? failure.toString() : failure + " (cause: " + root + ")";
    }
}
