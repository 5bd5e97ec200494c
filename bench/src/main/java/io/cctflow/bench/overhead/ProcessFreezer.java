package io.cctflow.bench.overhead;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Freezes and thaws whole processes with {@code SIGSTOP} and {@code SIGCONT}. Java cannot send
 * these signals itself ({@link ProcessHandle} only terminates), and starting {@code kill} per
 * signal costs milliseconds; so one long-lived shell runs its built-in {@code kill} for each
 * request on its stdin and acknowledges on stdout, a pipe round trip (tens of microseconds).
 * Not thread-safe: one controlling thread.
 */
final class ProcessFreezer implements AutoCloseable {
    private static final String LOOP =
            "while read sig pid; do if kill -s \"$sig\" \"$pid\"; then echo ok; else echo failed; fi; done";
    private static final Duration STOP_LIMIT = Duration.ofSeconds(10);

    private final Process shell;
    private final Writer requests;
    private final BufferedReader replies;

    ProcessFreezer() throws IOException {
        shell = new ProcessBuilder("/bin/sh", "-c", LOOP).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        requests = new OutputStreamWriter(shell.getOutputStream(), StandardCharsets.US_ASCII);
        replies = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.US_ASCII));
    }

    /**
     * Sends {@code SIGSTOP} to {@code pid} and returns once every thread of it is stopped, so its
     * counters and CPU times no longer move.
     *
     * @throws IllegalStateException if the signal fails or the process is not stopped within 10 s
     */
    void freeze(long pid) throws IOException, InterruptedException {
        signal("STOP", pid);
        long deadline = System.nanoTime() + STOP_LIMIT.toNanos();
        while (!allStopped(pid)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("process " + pid + " did not stop within " + STOP_LIMIT);
            }
            Thread.onSpinWait();
        }
    }

    /** Sends {@code SIGCONT} to {@code pid}; returns once the signal was sent. */
    void thaw(long pid) throws IOException {
        signal("CONT", pid);
    }

    private void signal(String name, long pid) throws IOException {
        requests.write(name + " " + pid + "\n");
        requests.flush();
        String reply = replies.readLine();
        if (!"ok".equals(reply)) {
            throw new IllegalStateException("kill -s " + name + " " + pid + " failed (" + reply
                    + "): has the child exited? See its .err file");
        }
    }

    /** True when every thread of {@code pid} is in state T (stopped) or gone. */
    static boolean allStopped(long pid) throws IOException {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
                } catch (IOException e) {
                    continue; // the thread ended
                }
                if (!isStopped(stat)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether a {@code /proc/.../stat} line shows a stopped thread (state after the name in parentheses). */
    static boolean isStopped(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 >= stat.length()) {
            throw new IllegalArgumentException("not a /proc stat line: '" + stat + "'");
        }
        char state = stat.charAt(close + 2);
        return state == 'T' || state == 't';
    }

    @Override
    public void close() throws InterruptedException {
        try {
            requests.close();
        } catch (IOException e) {
            // the shell is gone already
        }
        if (!shell.waitFor(5, TimeUnit.SECONDS)) {
            shell.destroyForcibly();
        }
    }
}
