package io.cctflow.query.http;

import org.neo4j.driver.exceptions.Neo4jException;

/**
 * Recognises a read that Neo4j ended at {@code neo4j.transaction-timeout}, so the client gets 503
 * saying so instead of an internal error.
 */
final class Neo4jTimeouts {
    private Neo4jTimeouts() {
    }

    /** The 503 of a Neo4j transaction timeout anywhere in {@code failure}'s causes, or null. */
    static ApiException asApiException(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof Neo4jException n && n.code() != null && n.code().contains("TransactionTimedOut")) {
                return new ApiException(503, "a Neo4j read took longer than " + ServerLimits.TRANSACTION_TIMEOUT
                        + " and was ended; narrow the time range or the selection, or raise "
                        + ServerLimits.TRANSACTION_TIMEOUT);
            }
        }
        return null;
    }
}
