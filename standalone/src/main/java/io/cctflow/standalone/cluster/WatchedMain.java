package io.cctflow.standalone.cluster;

import io.cctflow.servers.internal.ParentWatchdog;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Entry point of the cluster's child JVMs: runs the main class named by the first argument with
 * the rest, and exits when the parent goes ({@link ParentWatchdog}), so no orphan outlives a
 * stopped cluster.
 */
public final class WatchedMain {
    private WatchedMain() {
    }

    public static void main(String[] args) throws Throwable {
        ParentWatchdog.start(args[0]);
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
