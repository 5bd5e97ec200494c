package io.cctflow.query.api;

import io.cctflow.query.http.ApiException;

/** Node ids as the API writes them: 64-bit decimal strings (signed, or unsigned as some clients print them). */
final class NodeIds {
    private NodeIds() {
    }

    /** The node id in a parameter; 400 naming it when it is not one. */
    static long parse(String param, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            try {
                return Long.parseUnsignedLong(text);
            } catch (NumberFormatException e2) {
                throw ApiException.badRequest("parameter '" + param + "' must be a node id (a 64-bit decimal number"
                        + " as the tree endpoint returns it), got '" + text + "'");
            }
        }
    }
}
