package io.cctflow.core;

/**
 * Identity of a method: declaring class + name + descriptor, and its stable 64-bit id.
 *
 * <p>The id is {@code fmix64(FNV-1a(signature))} where the signature is
 * {@code className + "." + methodName + descriptor}, e.g. {@code java.util.HashMap.get(Ljava/lang/Object;)Ljava/lang/Object;}.
 * It is the same in every JVM and every run, so instances need no coordination.
 */
public final class MethodId {
    private MethodId() {
    }

    /** The signature string the id is computed from. */
    public static String signature(String className, String methodName, String descriptor) {
        return className + "." + methodName + descriptor;
    }

    /** The id of a method, without building the signature string. */
    public static long of(String className, String methodName, String descriptor) {
        long h = Hashing.fnv1aStart();
        h = Hashing.fnv1a(h, className);
        h = Hashing.fnv1a(h, ".");
        h = Hashing.fnv1a(h, methodName);
        h = Hashing.fnv1a(h, descriptor);
        return Hashing.fmix64(h);
    }

    /** The id of a method given its full signature as built by {@link #signature}. */
    public static long ofSignature(String signature) {
        return Hashing.fmix64(Hashing.fnv1a(Hashing.fnv1aStart(), signature));
    }
}
