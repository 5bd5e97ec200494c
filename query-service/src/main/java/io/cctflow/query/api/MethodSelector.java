package io.cctflow.query.api;

import io.cctflow.query.http.ApiException;

/**
 * A method as users write it: {@code fully.qualified.Class.method} for all overloads, or with a JVM
 * descriptor, {@code fully.qualified.Class.method(I)V}, for one.
 *
 * @param descriptor null for all overloads
 */
public record MethodSelector(String className, String methodName, String descriptor) {

    public static MethodSelector parse(String text) {
        return parse("method", text);
    }

    /** {@link #parse(String)} for a parameter of another name, which the error names. */
    public static MethodSelector parse(String param, String text) {
        int paren = text.indexOf('(');
        String name = paren < 0 ? text : text.substring(0, paren);
        String descriptor = paren < 0 ? null : text.substring(paren);
        int dot = name.lastIndexOf('.');
        if (dot <= 0 || dot == name.length() - 1 || (descriptor != null && !descriptor.matches("\\(.*\\).+"))) {
            throw ApiException.badRequest("parameter '" + param + "' must be fully.qualified.Class.method or "
                    + "fully.qualified.Class.method(descriptor), e.g. com.example.Cart.total or "
                    + "com.example.Cart.total(I)J; got '" + text + "'");
        }
        return new MethodSelector(name.substring(0, dot), name.substring(dot + 1), descriptor);
    }

    @Override
    public String toString() {
        return className + "." + methodName + (descriptor == null ? "" : descriptor);
    }
}
