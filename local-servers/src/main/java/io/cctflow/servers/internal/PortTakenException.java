package io.cctflow.servers.internal;

import io.cctflow.servers.ServerStartException;

/**
 * A server could not start because a port it was to use is in use. For ports picked free (none
 * requested, none stored), the caller may start again on other ports.
 */
public final class PortTakenException extends ServerStartException {

    public PortTakenException(String message) {
        super(message);
    }
}
