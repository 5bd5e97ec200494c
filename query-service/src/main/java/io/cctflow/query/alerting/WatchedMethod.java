package io.cctflow.query.alerting;

import io.cctflow.query.api.MethodSelector;
import io.cctflow.query.http.ApiException;

/**
 * One entry of the watch list: a method (all overloads, or one with its descriptor) of a service,
 * written {@code service:fully.qualified.Class.method[(descriptor)]}.
 */
public record WatchedMethod(String service, MethodSelector method) {

    /** @throws IllegalArgumentException naming the entry and the expected form */
    public static WatchedMethod parse(String entry) {
        int colon = entry.indexOf(':');
        if (colon <= 0 || colon == entry.length() - 1) {
            throw new IllegalArgumentException("entry '" + entry + "' must be service:fully.qualified.Class.method, "
                    + "e.g. checkout:com.example.Cart.total");
        }
        try {
            return new WatchedMethod(entry.substring(0, colon).trim(), MethodSelector.parse(entry.substring(colon + 1).trim()));
        } catch (ApiException e) {
            throw new IllegalArgumentException("entry '" + entry + "': method must be fully.qualified.Class.method or "
                    + "fully.qualified.Class.method(descriptor)", e);
        }
    }

    @Override
    public String toString() {
        return service + ":" + method;
    }
}
