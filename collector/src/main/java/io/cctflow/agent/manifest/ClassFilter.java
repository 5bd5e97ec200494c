package io.cctflow.agent.manifest;

import java.util.List;

/**
 * Which classes are fingerprinted: all but those whose binary name starts with one of the excluded
 * prefixes (e.g. {@code java.}). Works on internal names ({@code java/lang/String}), as the JVM
 * hands them to transformers, without allocating. Immutable and thread-safe.
 */
public final class ClassFilter {
    private final String[] internalPrefixes;

    /** @param excludedPrefixes binary-name prefixes with dots, e.g. {@code java.}, {@code com.sun.} */
    public ClassFilter(List<String> excludedPrefixes) {
        this.internalPrefixes = excludedPrefixes.stream().map(p -> p.replace('.', '/')).toArray(String[]::new);
    }

    /**
     * Whether a class is fingerprinted. Hidden classes (lambdas, {@code Lookup.defineHiddenClass})
     * are not: their names carry a per-run address ({@code Foo$$Lambda/0x...}) that would make a
     * new "method" in every run.
     *
     * @param internalName e.g. {@code com/acme/Checkout}; null (no name) is never included
     */
    public boolean includes(String internalName) {
        if (internalName == null || internalName.indexOf("/0x") >= 0) {
            return false;
        }
        for (String prefix : internalPrefixes) {
            if (internalName.startsWith(prefix)) {
                return false;
            }
        }
        return true;
    }
}
