package io.cctflow.agent.manifest;

import java.security.CodeSource;
import java.security.ProtectionDomain;
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

    /**
     * Whether a class may have come from a class file of the deployment (a jar, a directory, the
     * JDK's image): defined by the boot loader, or in a protection domain whose code source has a
     * location. The cheap check on the class-loading thread; {@link ClassFiles#exists} decides on
     * the fingerprinting thread (JRuby's and Jython's compilers define their output with the
     * jar's code source). Run-time generators that define classes without one (jnr-ffi's native
     * stubs {@code LinuxLibC$jnr$ffi$0}, a {@code defineClass} without a domain) may emit another
     * class file in every run of the same release: jnr-ffi numbers its stubs' fields in the order
     * reflection lists the interface's methods, which differs between runs, so their methods
     * showed as modified between two runs of one jar. Such classes are not fingerprinted. The
     * price: a class loaded from a real file by a loader that passes no protection domain is left
     * out too.
     *
     * @param loader the defining loader; null for the boot loader
     * @param domain the class's protection domain; may be null
     */
    public static boolean fromClassFile(ClassLoader loader, ProtectionDomain domain) {
        if (loader == null) {
            return true;
        }
        CodeSource source = domain == null ? null : domain.getCodeSource();
        return source != null && source.getLocation() != null;
    }
}
