package io.cctflow.agent.manifest;

import java.util.List;

import io.cctflow.core.ClassNames;

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
     * Whether a class is fingerprinted. Classes named at run time ({@link ClassNames#isGenerated}:
     * hidden classes such as lambdas, reflection accessors, proxies, CGLIB and ByteBuddy classes)
     * are not: their names carry a per-run address or counter ({@code Foo$$Lambda/0x...},
     * {@code $Proxy12}) that would make a new "method" in every run, and the samples know them
     * only by their normalised names, which several such classes share.
     *
     * @param internalName e.g. {@code com/acme/Checkout}; null (no name) is never included
     */
    public boolean includes(String internalName) {
        if (internalName == null || ClassNames.isGenerated(internalName)) {
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
