package io.cctflow.servers.internal;

import java.io.IOException;
import java.io.InputStream;

/**
 * Ends a child JVM when its parent goes. The parent keeps the child's standard input open as a
 * pipe and never writes to it; when the parent dies, even by SIGKILL, the operating system closes
 * the pipe, the watchdog reads end-of-file and calls {@code System.exit}, which runs the child's
 * shutdown hooks. Without this, a killed test JVM would leave orphaned servers running.
 * ({@code Process.destroy()} in the parent also closes the pipe, so a normal stop arrives both
 * ways; shutdown hooks run once.)
 */
public final class ParentWatchdog {

    private ParentWatchdog() {
    }

    /** Starts the watchdog, a daemon thread; {@code what} names the server in its last message. */
    public static void start(String what) {
        Thread watchdog = new Thread(() -> exitWhenParentGoes(what), "cctflow-parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private static void exitWhenParentGoes(String what) {
        InputStream in = System.in;
        try {
            while (in.read() != -1) {
                // the parent writes nothing; any byte is ignored
            }
        } catch (IOException e) {
            // a broken pipe means the same as end-of-file: the parent is gone
        }
        System.err.println("cctflow: standard input closed (the parent is stopping us or is gone), stopping " + what);
        System.exit(0);
    }
}
