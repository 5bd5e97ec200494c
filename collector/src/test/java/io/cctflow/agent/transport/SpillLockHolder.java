package io.cctflow.agent.transport;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A live agent's hold on its spill directory, in a process of its own ({@link OrphanedSpillsTest}):
 * locks the lock file named by the argument, prints {@code locked}, and holds it until its
 * standard input closes.
 */
public final class SpillLockHolder {
    private SpillLockHolder() {
    }

    public static void main(String[] args) throws Exception {
        try (FileChannel ch = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = ch.lock()) {
            System.out.println("locked");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the lock until the test closes our input
            }
        }
    }
}
