package io.cctflow.query.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;

/**
 * {@code GET /api/v1/openapi.json}: the OpenAPI 3 document of the API, a resource kept next to
 * this class ({@code openapi.json}); a test checks that it describes every registered endpoint and
 * every parameter each one accepts.
 */
public final class OpenApiEndpoint implements JsonHandler.Endpoint {
    public static final String PATH = "/api/v1/openapi.json";
    private final JsonNode document = load();

    /** The document, parsed. */
    public static JsonNode load() {
        try (InputStream in = OpenApiEndpoint.class.getResourceAsStream("openapi.json")) {
            if (in == null) {
                throw new IllegalStateException("openapi.json is missing from the query-service jar");
            }
            return JsonHandler.json().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("openapi.json cannot be read", e);
        }
    }

    @Override
    public Object handle(QueryParams params) {
        params.allowOnly(Set.of());
        return document;
    }
}
