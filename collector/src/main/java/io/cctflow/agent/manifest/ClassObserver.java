package io.cctflow.agent.manifest;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

/**
 * Observes class definitions and never transforms them: {@link #transform} always returns null
 * (no change). On the class-loading thread it only checks the name against the filter and that
 * the class came from a class file ({@link ClassFilter#fromClassFile}), and copies
 * the class file into the bounded {@link ClassQueue}; parsing and hashing happen on the
 * fingerprinting thread. A full queue refuses the class, which is counted as dropped.
 * Redefinitions and retransformations (another agent at work) are ignored: the first definition
 * of a class is its code.
 *
 * <p>Thread-safe: the JVM calls it from any class-loading thread, concurrently.
 */
final class ClassObserver implements ClassFileTransformer {
    private final ClassFilter filter;
    private final ClassQueue queue;
    private final ManifestCounters counters;

    ClassObserver(ClassFilter filter, ClassQueue queue, ManifestCounters counters) {
        this.filter = filter;
        this.queue = queue;
        this.counters = counters;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        try {
            if (classBeingRedefined == null && classfileBuffer != null && filter.includes(className)
                    && ClassFilter.fromClassFile(loader, protectionDomain)) {
                observe(loader, className, classfileBuffer);
            }
        } catch (Throwable t) {
            // nothing may reach the class loader; a class lost here is simply not fingerprinted
            counters.classDropped();
        }
        return null;
    }

    private void observe(ClassLoader loader, String internalName, byte[] classFile) {
        counters.classSeen();
        if (!queue.offer(new ObservedClass(internalName, classFile.clone(), loader))) {
            counters.classDropped();
        }
    }
}
