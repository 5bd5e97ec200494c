package io.cctflow.core;

/**
 * Normalises method names that carry a counter instead of an identity, the method-name
 * counterpart of {@link ClassNames}. One rule so far: JRuby compiles every Ruby call site into a
 * synthetic static method named {@code invoke<Kind><N>:<ruby name>} ({@code invokeOther41:+},
 * {@code invokeOtherOneFixnum17:+}, {@code invokeSelf3:fib}), numbered in the order a compilation
 * emits them; the number becomes {@code #} ({@code invokeOther#:+}). It only tells call sites apart,
 * which the node's call-site line already does (DESIGN.md: a call site is a line of the caller):
 * with the numbers, the two calls of {@code fib(n - 1) + fib(n - 2)} on one line are two methods,
 * so a recursion of depth d makes up to 2^d paths where one per depth is what a line-level call-site
 * tree has, and the numbers of a method compiled on its own differ from those of the whole script.
 * Measured on two runs of one JRuby release (two 30 s JFR recordings of the harness's workload,
 * compared path by path): 10,036 and 9,125 nodes sharing 36-40 % before, 3,899 and 4,093 nodes
 * sharing 55-57 % after. A {@code ':'} never occurs in names javac emits, so Java code is not
 * affected. A name no rule applies to is returned as the same instance; normalising is
 * idempotent. Stateless and thread-safe.
 */
public final class MethodNames {
    private static final String INVOKE = "invoke";

    private MethodNames() {
    }

    /**
     * The normalised name.
     *
     * @param name a method name, not null
     * @return {@code name} itself when no rule applies
     */
    public static String normalise(String name) {
        if (!name.startsWith(INVOKE)) {
            return name;
        }
        int i = INVOKE.length();
        while (i < name.length() && isAsciiLetter(name.charAt(i))) {
            i++;
        }
        int digits = i;
        while (i < name.length() && name.charAt(i) >= '0' && name.charAt(i) <= '9') {
            i++;
        }
        if (i == digits || i >= name.length() || name.charAt(i) != ':') {
            return name;
        }
        return name.substring(0, digits) + '#' + name.substring(i);
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
