package io.cctflow.core;

/**
 * Normalises the names of classes the JVM or a library generates at run time, whose names differ
 * from run to run although the code is the same: a method id must be the same value in every JVM
 * and every run (DESIGN.md, "Identity"), and a single unstable frame near the root would make
 * every path below it new. Seen on real applications (JRuby, whose call sites are method-handle
 * chains): the two runs of one release shared 1.8 % of their trees until these names were
 * normalised. The rules, in this order:
 *
 * <ol>
 *   <li><b>Hidden classes</b> (lambdas, lambda forms, {@code Lookup.defineHiddenClass}) end in
 *       their address: {@code Foo$$Lambda$14/0x0000000800c0b440} as {@link Class#getName} spells
 *       it, {@code +0x...} in the JVM's own symbol (as JFR reports it), {@code .0x...} once slashes
 *       became dots. JFR also appends the class mirror's identity hash ({@code /232042179}, a dot
 *       after JFR's slash-to-dot conversion). Both are cut:
 *       {@code java.lang.invoke.LambdaForm$MH+0x00007f1ff06f8000.232042179} becomes
 *       {@code java.lang.invoke.LambdaForm$MH}.</li>
 *   <li><b>Counters</b> that number generated classes in the order a run creates them become
 *       {@code #} (as {@link ThreadNames} does for pools): {@code Foo$$Lambda$1484} →
 *       {@code Foo$$Lambda$#}; {@code jdk.internal.reflect.GeneratedMethodAccessor12} →
 *       {@code ...GeneratedMethodAccessor#} (also {@code GeneratedConstructorAccessor},
 *       {@code GeneratedSerializationConstructorAccessor}); {@code jdk.proxy2.$Proxy17} →
 *       {@code jdk.proxy#.$Proxy#}.</li>
 *   <li><b>Generated suffixes</b> of code-generation libraries (hashes or random strings after a
 *       marker) become {@code #}: {@code $$EnhancerBySpringCGLIB$$1a2b3c4d},
 *       {@code $$EnhancerByCGLIB$$}, {@code $$FastClassBySpringCGLIB$$},
 *       {@code $$FastClassByCGLIB$$}, {@code $$KeyFactoryByCGLIB$$}, {@code $$SpringCGLIB$$0},
 *       {@code $ByteBuddy$AbCdEfGh}, {@code $auxiliary$AbCdEfGh}, {@code $HibernateProxy$AbCd},
 *       {@code $MockitoMock$123456}: the ASCII letters and digits after the marker.</li>
 * </ol>
 *
 * <p>Two generated classes that differ only in what is removed get one name: e.g. two lambdas of
 * one class that implement the same interface method become one method. The tree still keeps
 * them apart one level down, where each calls its own {@code lambda$name$N} body, whose name javac
 * fixes. Everything else is left as it is; a name no rule applies to is returned as the same
 * instance. Accepts binary names ({@code a.b.C}) and internal names ({@code a/b/C}). Normalising is
 * idempotent. Stateless and thread-safe.
 */
public final class ClassNames {
    private static final String LAMBDA = "$$Lambda$";
    private static final String PROXY_CLASS = "$Proxy";
    private static final String[] PROXY_PACKAGES = {"jdk.proxy", "jdk/proxy"};
    private static final String[] ACCESSORS = {
        "GeneratedMethodAccessor", "GeneratedConstructorAccessor", "GeneratedSerializationConstructorAccessor"};
    private static final String[] MARKERS = {
        "$$EnhancerBySpringCGLIB$$", "$$EnhancerByCGLIB$$", "$$FastClassBySpringCGLIB$$",
        "$$FastClassByCGLIB$$", "$$KeyFactoryByCGLIB$$", "$$SpringCGLIB$$", "$ByteBuddy$",
        "$auxiliary$", "$HibernateProxy$", "$MockitoMock$"};

    private ClassNames() {
    }

    /**
     * The normalised name.
     *
     * @param name a class name, not null
     * @return {@code name} itself when no rule applies
     */
    public static String normalise(String name) {
        String s = cutHiddenSuffixes(name);
        s = replaceCounters(s);
        s = replaceMarkedSuffixes(s);
        return s.equals(name) ? name : s;
    }

    /**
     * Whether the class was named at run time (a rule of {@link #normalise} applies): its name is
     * not an identity, so neither are its bytes (the manifest leaves such classes out).
     */
    public static boolean isGenerated(String name) {
        return normalise(name) != name;
    }

    // ---- rule 1: hidden-class address and JFR's hash

    private static String cutHiddenSuffixes(String name) {
        String s = name;
        int cut;
        while ((cut = hiddenSuffixStart(s)) >= 0) {
            s = s.substring(0, cut);
        }
        return s;
    }

    /** Where {@code [+/.]0x<hex>} (optionally followed by {@code [./]<digits>}) ending {@code s} starts, or -1. */
    private static int hiddenSuffixStart(String s) {
        int start = addressStart(s, s.length());
        if (start >= 0) {
            return start;
        }
        int digits = s.length();
        while (digits > 0 && isDigit(s.charAt(digits - 1))) {
            digits--;
        }
        if (digits < s.length() && digits > 0 && isSeparator(s.charAt(digits - 1))) {
            return addressStart(s, digits - 1);
        }
        return -1;
    }

    /** Where {@code [+/.]0x<hex>} ending at {@code end} starts, or -1. */
    private static int addressStart(String s, int end) {
        int k = end;
        while (k > 0 && isHex(s.charAt(k - 1))) {
            k--;
        }
        if (k == end || k < 3 || s.charAt(k - 1) != 'x' || s.charAt(k - 2) != '0') {
            return -1;
        }
        char marker = s.charAt(k - 3);
        return marker == '+' || isSeparator(marker) ? k - 3 : -1;
    }

    // ---- rule 2: counters

    private static String replaceCounters(String s) {
        int simple = simpleNameStart(s);
        int digits = trailingDigits(s);
        if (digits > 0) {
            int counter = s.length() - digits;
            if (s.startsWith(LAMBDA, counter - LAMBDA.length())) {
                s = s.substring(0, counter) + '#';
            } else if (s.startsWith(PROXY_CLASS, simple) && counter == simple + PROXY_CLASS.length()) {
                s = s.substring(0, counter) + '#';
            } else {
                for (String accessor : ACCESSORS) {
                    if (s.startsWith(accessor, simple) && counter == simple + accessor.length()) {
                        s = s.substring(0, counter) + '#';
                    }
                }
            }
        }
        for (String proxyPackage : PROXY_PACKAGES) {
            if (s.startsWith(proxyPackage)) {
                int end = proxyPackage.length();
                while (end < s.length() && isDigit(s.charAt(end))) {
                    end++;
                }
                if (end > proxyPackage.length() && end < s.length() && isSeparator(s.charAt(end))) {
                    s = proxyPackage + '#' + s.substring(end);
                }
            }
        }
        return s;
    }

    private static int simpleNameStart(String s) {
        return Math.max(s.lastIndexOf('.'), s.lastIndexOf('/')) + 1;
    }

    private static int trailingDigits(String s) {
        int n = 0;
        while (n < s.length() && isDigit(s.charAt(s.length() - 1 - n))) {
            n++;
        }
        return n;
    }

    // ---- rule 3: library markers

    private static String replaceMarkedSuffixes(String s) {
        if (s.indexOf('$') < 0) {
            return s;
        }
        for (String marker : MARKERS) {
            int from = 0;
            int at;
            while ((at = s.indexOf(marker, from)) >= 0) {
                int start = at + marker.length();
                int end = start;
                while (end < s.length() && isAsciiLetterOrDigit(s.charAt(end))) {
                    end++;
                }
                if (end > start) {
                    s = s.substring(0, start) + '#' + s.substring(end);
                }
                from = start;
            }
        }
        return s;
    }

    private static boolean isSeparator(char c) {
        return c == '.' || c == '/';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHex(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean isAsciiLetterOrDigit(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
