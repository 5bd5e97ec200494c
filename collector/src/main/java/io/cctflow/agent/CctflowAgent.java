package io.cctflow.agent;

import java.lang.instrument.Instrumentation;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

import io.cctflow.agent.importer.ImportCommand;
import io.cctflow.agent.log.AgentLog;

/**
 * Entry point of the cctflow Java agent: {@code -javaagent:cctflow-collector.jar[=key=value,...]},
 * or attached to a running JVM ({@code agentmain}). Run as {@code java -jar} it prints its usage.
 *
 * <p>{@code premain} only starts one daemon thread and returns: everything slow (host name
 * lookup, JFR start-up, Kafka client creation) happens there, and nothing the agent does can
 * throw into the host or keep it from exiting. The agent starts at most once per JVM.
 */
public final class CctflowAgent {
    /** Name of the thread that starts the agent and then runs the JFR stream. */
    public static final String THREAD_NAME = "cctflow-sampler";

    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private CctflowAgent() {
    }

    /** Called by the JVM before {@code main} for {@code -javaagent}. Never throws. */
    public static void premain(String agentArgs, Instrumentation instrumentation) {
        start(agentArgs, instrumentation, false);
    }

    /** Called by the JVM when the agent is attached to a running JVM. Never throws. */
    public static void agentmain(String agentArgs, Instrumentation instrumentation) {
        start(agentArgs, instrumentation, true);
    }

    /**
     * {@code java -jar cctflow-collector.jar import ...} runs the import ({@link ImportCommand});
     * without arguments it prints the usage and the configuration keys.
     */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("import")) {
            System.exit(ImportCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out,
                    System.err));
        }
        if (args.length > 0 && !args[0].equals("--help")) {
            System.err.println("unknown command '" + args[0] + "'; the only command is 'import'");
            System.err.println(usage());
            System.exit(ImportCommand.USAGE);
        }
        System.out.println(usage());
    }

    static String usage() {
        return "cctflow agent: samples stacks with JDK Flight Recorder and sends them to Kafka.\n"
                + "\n"
                + "usage: java -javaagent:cctflow-collector.jar[=key=value,key=value...] ...\n"
                + "   or: attach it to a running JVM (Attach API, VirtualMachine.loadAgent)\n"
                + "   or: java -jar cctflow-collector.jar import --help   (publish .jfr and\n"
                + "       collapsed-stack files)\n"
                + "\n"
                + "Each key is read from the agent arguments, else the system property, else the\n"
                + "environment variable, else the properties file named by 'config'; a bad value\n"
                + "is reported and the default used.\n"
                + "\n"
                + AgentConfig.describeKeys();
    }

    private static void start(String agentArgs, Instrumentation instrumentation, boolean attached) {
        try {
            if (!STARTED.compareAndSet(false, true)) {
                AgentLog.warn("agent already running in this JVM; ignoring the second start");
                return;
            }
            Thread thread = new Thread(() -> AgentRuntime.run(agentArgs, instrumentation, attached),
                    THREAD_NAME);
            thread.setDaemon(true);
            thread.start();
        } catch (Throwable t) {
            AgentLog.warn("agent failed to start; the application runs without it", t);
        }
    }
}
