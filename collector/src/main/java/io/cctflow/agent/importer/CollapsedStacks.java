package io.cctflow.agent.importer;

import java.util.Arrays;

import io.cctflow.agent.batch.MethodId;
import io.cctflow.agent.sampling.CallSiteLines;
import io.cctflow.core.ClassNames;
import io.cctflow.core.MethodNames;
import io.cctflow.core.ThreadNames;

/**
 * Parses one line of a collapsed-stack file (FlameGraph's {@code stackcollapse} format, also
 * written by async-profiler's {@code collapsed} output): frames root first, separated by
 * {@code ;} (outside a descriptor's parentheses), then a space and the sample count, e.g. {@code java/lang/Thread.run;a.B.c:42 17}.
 *
 * <p>Each frame is {@code class.method}, the class with dots or slashes, optionally followed by:
 * a JVM descriptor ({@code a.B.c(I)V}, async-profiler {@code --signatures}), the line the frame
 * was executing ({@code :42}, async-profiler {@code --lines}), and a frame-type suffix
 * ({@code _[j]} JIT-compiled, {@code _[i]} inlined, {@code _[k]} kernel, {@code _[0]}
 * interpreted, {@code _[1]} C1-compiled), which is dropped. The format has no descriptors, so a
 * frame without one gets {@link #NO_DESCRIPTOR}: all overloads of a name become one method. A
 * frame without a dot (a native or kernel function) gets the class {@link #NATIVE_CLASS}. A
 * first frame in brackets, {@code [name]} or async-profiler's {@code [name tid=123]}
 * ({@code --threads}), is the thread, normalised like the agent's; without one the thread is
 * {@link ThreadNames#UNKNOWN}. Class and method names are normalised as the agent's are
 * ({@link ClassNames#normalise}: hidden-class addresses, lambda and proxy counters;
 * {@link MethodNames#normalise}: JRuby's call-site numbers). Lines become
 * call-site lines as in the agent.
 *
 * <p>Not thread-safe: the result arrays are reused from one line to the next.
 */
public final class CollapsedStacks {
    /** Descriptor of every method read from a collapsed stack without one. */
    public static final String NO_DESCRIPTOR = "(?)";
    /** Class of frames that name a function without a class (native, kernel). */
    public static final String NATIVE_CLASS = "[native]";

    private MethodId[] frames = new MethodId[256];
    private int[] lines = new int[256];
    private int depth;
    private String thread;
    private long count;

    /** A line that is not a collapsed stack; the message says why. */
    public static final class FormatException extends Exception {
        private static final long serialVersionUID = 1L;

        FormatException(String message) {
            super(message);
        }
    }

    /**
     * Parses {@code line}; the result is available from the accessors until the next call.
     *
     * @throws FormatException when the line is not {@code frames count}
     */
    public void parse(String line) throws FormatException {
        String s = line.strip();
        int space = s.lastIndexOf(' ');
        if (space <= 0) {
            throw new FormatException("expected '<frame>;<frame>... <count>', found no count");
        }
        count = parseCount(s.substring(space + 1));
        String stack = s.substring(0, space).strip();
        depth = 0;
        thread = ThreadNames.UNKNOWN;
        int start = 0;
        boolean first = true;
        while (start <= stack.length()) {
            int end = frameEnd(stack, start);
            String frame = stack.substring(start, end);
            if (first && frame.length() > 2 && frame.startsWith("[") && frame.endsWith("]")) {
                thread = threadName(frame.substring(1, frame.length() - 1));
            } else {
                addFrame(frame);
            }
            first = false;
            start = end + 1;
        }
        if (depth == 0) {
            throw new FormatException("no frames besides the thread");
        }
        CallSiteLines.fromExecutingLines(lines, depth);
    }

    /** The frames of the last line, root first; valid up to {@link #depth()}. */
    public MethodId[] frames() {
        return frames;
    }

    /** The call-site lines of the last line's frames (0 where unknown). */
    public int[] lines() {
        return lines;
    }

    public int depth() {
        return depth;
    }

    /** The normalised thread name of the last line. */
    public String thread() {
        return thread;
    }

    /** The sample count of the last line, at least 1. */
    public long count() {
        return count;
    }

    /** The index of the {@code ;} that ends the frame at {@code start}, or the length. */
    private static int frameEnd(String stack, int start) {
        int parens = 0;
        for (int i = start; i < stack.length(); i++) {
            char c = stack.charAt(i);
            if (c == '(') {
                parens++;
            } else if (c == ')') {
                parens = Math.max(0, parens - 1);
                if (parens == 0) {
                    i = returnTypeEnd(stack, i + 1) - 1; // an object return type, )Ljava/lang/String;, ends no frame either
                }
            } else if (c == ';' && parens == 0) {
                return i; // a ';' inside a descriptor, (Ljava/lang/String;)V, ends no frame
            }
        }
        return stack.length();
    }

    /** The index after the return type that starts at {@code from} ({@code [}* then {@code Lname;} or one letter). */
    private static int returnTypeEnd(String stack, int from) {
        int i = from;
        while (i < stack.length() && stack.charAt(i) == '[') {
            i++;
        }
        if (i < stack.length() && stack.charAt(i) == 'L') {
            int semicolon = stack.indexOf(';', i);
            return semicolon < 0 ? from : semicolon + 1;
        }
        return from;
    }

    private static long parseCount(String raw) throws FormatException {
        if (raw.isEmpty() || raw.length() > 18 || !raw.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new FormatException("count '" + raw + "' is not a positive integer");
        }
        long n = Long.parseLong(raw);
        if (n == 0) {
            throw new FormatException("count is 0");
        }
        return n;
    }

    private static String threadName(String inside) {
        String name = inside;
        int tid = name.lastIndexOf(" tid=");
        if (tid >= 0 && name.substring(tid + 5).chars().allMatch(c -> c >= '0' && c <= '9')) {
            name = name.substring(0, tid);
        }
        return ThreadNames.normalise(name.strip());
    }

    private void addFrame(String raw) throws FormatException {
        String f = raw.strip();
        // frame-type suffix, e.g. _[j]
        if (f.length() > 4 && f.endsWith("]") && f.charAt(f.length() - 4) == '_'
                && f.charAt(f.length() - 3) == '[') {
            f = f.substring(0, f.length() - 4);
        }
        int line = 0;
        int colon = f.lastIndexOf(':');
        if (colon > 0 && colon < f.length() - 1 && isDigits(f, colon + 1)) {
            if (f.length() - colon - 1 > 9) {
                throw new FormatException("line number in frame '" + raw + "' is too large");
            }
            line = Integer.parseInt(f.substring(colon + 1));
            f = f.substring(0, colon);
        }
        if (f.isEmpty()) {
            throw new FormatException("empty frame at position " + (depth + 1));
        }
        String descriptor = NO_DESCRIPTOR;
        int paren = f.indexOf('(');
        if (paren > 0) {
            descriptor = f.substring(paren);
            f = f.substring(0, paren);
        }
        int dot = f.lastIndexOf('.');
        String className;
        String method;
        if (dot > 0 && dot < f.length() - 1) {
            className = ClassNames.normalise(f.substring(0, dot).replace('/', '.'));
            method = MethodNames.normalise(f.substring(dot + 1));
        } else {
            className = NATIVE_CLASS;
            method = f;
        }
        ensureCapacity(depth + 1);
        frames[depth] = new MethodId(className, method, descriptor);
        lines[depth] = line;
        depth++;
    }

    private static boolean isDigits(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private void ensureCapacity(int n) {
        if (frames.length < n) {
            frames = Arrays.copyOf(frames, Math.max(n, frames.length * 2));
            lines = Arrays.copyOf(lines, frames.length);
        }
    }
}
