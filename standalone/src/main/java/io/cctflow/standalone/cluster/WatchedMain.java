package io.cctflow.standalone.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Entry point of the cluster's child JVMs: runs the main class named by the first argument with
 * the rest, and exits when the parent goes. The parent keeps the child's standard input open as
 * a pipe and never writes to it; when the parent dies, even by SIGKILL, the pipe closes and the
 * child exits (running its shutdown hooks), so no orphan outlives a stopped cluster.
 */
public final class WatchedMain {
    private WatchedMain() {
    }

    public static void main(String[] args) throws Throwable {
        Thread watchdog = new Thread(WatchedMain::exitWhenParentGoes, "cctflow-parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void exitWhenParentGoes() {
        InputStream in = System.in;
        try {
            while (in.read() != -1) {
                // the parent writes nothing
            }
        } catch (IOException e) {
            // a broken pipe means the same: the parent is gone
        }
        System.err.println("cctflow: standard input closed (the parent is stopping us or is gone), exiting");
        System.exit(0);
    }
}
