package io.cctflow.agent.batch;

import java.util.Objects;

import io.cctflow.schema.MethodRef;

/**
 * A method's identity: declaring class (binary name with dots), name and JVM descriptor.
 * Immutable and thread-safe; its hash is computed once because it is looked up per frame.
 */
public final class MethodId {
    private final String className;
    private final String methodName;
    private final String descriptor;
    private final int hash;

    public MethodId(String className, String methodName, String descriptor) {
        this.className = Objects.requireNonNull(className, "className");
        this.methodName = Objects.requireNonNull(methodName, "methodName");
        this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
        this.hash = (className.hashCode() * 31 + methodName.hashCode()) * 31 + descriptor.hashCode();
    }

    public String className() {
        return className;
    }

    public String methodName() {
        return methodName;
    }

    public String descriptor() {
        return descriptor;
    }

    MethodRef toMethodRef() {
        return MethodRef.newBuilder()
                .setClassName(className)
                .setMethodName(methodName)
                .setDescriptor(descriptor)
                .build();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof MethodId)) {
            return false;
        }
        MethodId other = (MethodId) o;
        return hash == other.hash && className.equals(other.className)
                && methodName.equals(other.methodName) && descriptor.equals(other.descriptor);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return className + "." + methodName + descriptor;
    }
}
