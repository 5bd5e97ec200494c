package io.cctflow.core;

/**
 * Normalises thread names so that the threads of one pool share one name: every run of ASCII
 * digits becomes {@code #} ({@code pool-3-thread-17} becomes {@code pool-#-thread-#}). Without
 * this, per-thread views would split a pool into as many entries as it ever had threads. The agent
 * normalises at the source; {@link Cct#thread(String)} normalises again, so data from any producer
 * (an import, an older agent) is keyed the same way. Normalising is idempotent. Stateless and
 * thread-safe.
 */
public final class ThreadNames {
    /** Name used when JFR reports no thread or no Java name. */
    public static final String UNKNOWN = "unknown";

    private ThreadNames() {
    }

    /**
     * The stable 64-bit id of a thread name, after normalising it: the same in every JVM and run,
     * so counts of different instances and windows can be keyed by it (as {@link MethodId} keys
     * methods).
     */
    public static long id(String name) {
        return Hashing.fmix64(Hashing.fnv1a(Hashing.fnv1aStart(), normalise(name)));
    }

    /** The normalised name; returns {@code name} itself, without copying, when it has no digit. */
    public static String normalise(String name) {
        if (name == null) {
            return UNKNOWN;
        }
        int first = firstDigit(name);
        if (first < 0) {
            return name;
        }
        StringBuilder sb = new StringBuilder(name.length());
        sb.append(name, 0, first);
        boolean inDigits = false;
        for (int i = first; i < name.length(); i++) {
            char c = name.charAt(i);
            if (isDigit(c)) {
                if (!inDigits) {
                    sb.append('#');
                    inDigits = true;
                }
            } else {
                sb.append(c);
                inDigits = false;
            }
        }
        return sb.toString();
    }


    private static int firstDigit(String name) {
        for (int i = 0; i < name.length(); i++) {
            if (isDigit(name.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
