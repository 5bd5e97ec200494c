package io.cctflow.model;

import io.cctflow.core.MethodId;

/** A method and its stable id ({@link MethodId}). */
public record MethodRecord(long id, String className, String methodName, String descriptor) {

    public static MethodRecord of(String className, String methodName, String descriptor) {
        return new MethodRecord(MethodId.of(className, methodName, descriptor), className, methodName, descriptor);
    }

    public String signature() {
        return MethodId.signature(className, methodName, descriptor);
    }
}
