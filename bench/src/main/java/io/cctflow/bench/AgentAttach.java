package io.cctflow.bench;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.nio.file.Path;

/** Loads the cctflow agent into a running JVM through the Attach API, as users attach it. */
public final class AgentAttach {
    private AgentAttach() {
    }

    /**
     * Attaches to {@code pid} and loads {@code agentJar} with {@code arguments} (its
     * {@code agentmain}); returns when {@code agentmain} has returned.
     *
     * @param what names the JVM in the error
     * @throws IOException naming {@code what} and the pid when the JVM refuses the attach or the agent
     */
    public static void load(long pid, Path agentJar, String arguments, String what) throws IOException {
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                vm.loadAgent(agentJar.toAbsolutePath().toString(), arguments);
            } finally {
                vm.detach();
            }
        } catch (AttachNotSupportedException | AgentLoadException | AgentInitializationException e) {
            throw new IOException("could not attach the agent to " + what + " (pid " + pid + "): " + e, e);
        }
    }
}
