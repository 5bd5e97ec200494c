package io.cctflow.bench.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * Timed GET requests to the query service, as a client sees them: from sending the request to
 * having read the whole response body. Thread-safe.
 */
final class ApiClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One call: wall time and the parsed JSON body. */
    record Call(double millis, int bytes, JsonNode body) {
    }

    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;

    ApiClient(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** @throws IllegalStateException on any status but 200, with the service's message */
    Call get(String pathAndQuery) throws IOException, InterruptedException {
        long start = System.nanoTime();
        byte[] body = send(pathAndQuery);
        double millis = (System.nanoTime() - start) / 1e6;
        return new Call(millis, body.length, JSON.readTree(body));
    }

    /** A call answered in text (e.g. a Prometheus scrape): wall time and the body. */
    record TextCall(double millis, String body) {
    }

    /** As {@link #get}, the body as UTF-8 text. */
    TextCall getText(String pathAndQuery) throws IOException, InterruptedException {
        long start = System.nanoTime();
        byte[] body = send(pathAndQuery);
        return new TextCall((System.nanoTime() - start) / 1e6, new String(body, StandardCharsets.UTF_8));
    }

    private byte[] send(String pathAndQuery) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).build();
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + pathAndQuery + " answered " + response.statusCode() + ": "
                    + new String(response.body(), StandardCharsets.UTF_8));
        }
        return response.body();
    }
}
