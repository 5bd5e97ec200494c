package io.cctflow.query.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who may do what, from the two bearer tokens of the configuration ({@code auth.token},
 * {@code auth.write-token}):
 *
 * <ul>
 *   <li>a read ({@code GET}, {@code HEAD}, {@code OPTIONS}) needs the read token or the write token,
 *       or nothing when no read token is set;
 *   <li>a write (any other method) needs the write token; with no write token it needs nothing when
 *       no read token is set either, and is refused when one is (a read token must never write).
 * </ul>
 *
 * Tokens are compared in constant time, and always both, so timing tells nothing about which one
 * was close. Immutable and thread-safe.
 */
public final class AccessTokens {
    /** What a request may do. */
    public enum Decision { ALLOWED, UNAUTHENTICATED, READ_ONLY_TOKEN, WRITES_DISABLED }

    private final byte[] read; // null: none
    private final byte[] write; // null: none

    /** @param read empty: none; @param write empty: none */
    public AccessTokens(String read, String write) {
        this.read = bytes(read);
        this.write = bytes(write);
    }

    private static byte[] bytes(String token) {
        return token == null || token.isEmpty() ? null : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    /** True when no request needs a token: fine on loopback, dangerous anywhere else. */
    public boolean open() {
        return read == null && write == null;
    }

    /** True when reads need a token. */
    public boolean readsProtected() {
        return read != null;
    }

    /**
     * Decides one request.
     *
     * @param method the HTTP method
     * @param authorization the {@code Authorization} header, or null
     */
    public Decision decide(String method, String authorization) {
        byte[] given = authorization == null ? new byte[0] : authorization.trim().getBytes(StandardCharsets.UTF_8);
        boolean readOk = read != null && MessageDigest.isEqual(read, given);
        boolean writeOk = write != null && MessageDigest.isEqual(write, given);
        if (isRead(method)) {
            return read == null || readOk || writeOk ? Decision.ALLOWED : Decision.UNAUTHENTICATED;
        }
        if (write == null) {
            return read == null ? Decision.ALLOWED : Decision.WRITES_DISABLED;
        }
        if (writeOk) {
            return Decision.ALLOWED;
        }
        return readOk ? Decision.READ_ONLY_TOKEN : Decision.UNAUTHENTICATED;
    }

    private static boolean isRead(String method) {
        return "GET".equals(method) || "HEAD".equals(method) || "OPTIONS".equals(method);
    }
}
