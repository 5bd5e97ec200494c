package io.cctflow.agent;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A host application for {@link AgentAttachIT}: prints {@code ready}, keeps its main thread
 * busy until its stdin is closed, then prints {@code done <n> sampler threads} (the number of
 * agent sampler threads alive) and returns from {@code main} normally.
 */
public final class AttachTarget {
    private AttachTarget() {
    }

    public static void main(String[] args) {
        AtomicBoolean stop = new AtomicBoolean();
        Thread stdin = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // wait for end of input
                }
            } catch (IOException e) {
                // treat as closed
            }
            stop.set(true);
        }, "stdin-watch");
        stdin.setDaemon(true);
        stdin.start();
        System.out.println("ready");
        System.out.flush();
        double sum = 0;
        while (!stop.get()) {
            sum += work();
        }
        long samplers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(CctflowAgent.THREAD_NAME)).count();
        System.out.println("done " + samplers + " sampler threads " + (sum > 0));
    }

    private static double work() {
        double s = 0;
        for (int i = 1; i < 20_000; i++) {
            s += Math.sqrt(i);
        }
        return s;
    }
}
