package io.cctflow.bench.parcs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Calls the query service's {@code GET /api/v1/compare}, the endpoint users call. */
final class CompareClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private final String api;

    CompareClient(String api) {
        this.api = api;
    }

    /** Executions of one deployment: a compare side (several instances: instances are its replicates). */
    record Side(String version, List<String> instances) {
        Side(String version, String instance) {
            this(version, List.of(instance));
        }

        /** The side of every instance of {@code sides} (all of one version). */
        static Side of(Side... sides) {
            return new Side(sides[0].version(), Arrays.stream(sides).flatMap(s -> s.instances().stream()).toList());
        }
    }

    /**
     * Compares side {@code a} (baseline) with side {@code b}; with {@code noise} non-null, the overlap
     * of its two sides sets the weight-matching threshold (seed 000 Sect. 3.4).
     *
     * @throws IOException on a non-200 answer, with the service's message
     */
    JsonNode compare(String service, Side a, Side b, Side[] noise, int top) throws IOException, InterruptedException {
        List<Map.Entry<String, String>> params = new ArrayList<>();
        params.add(Map.entry("service", service));
        put(params, "a.", a);
        put(params, "b.", b);
        if (noise != null) {
            put(params, "noise.a.", noise[0]);
            put(params, "noise.b.", noise[1]);
        }
        params.add(Map.entry("top", Integer.toString(top)));
        String query = params.stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(api + "/api/v1/compare?" + query))
                .timeout(Duration.ofMinutes(2)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET /api/v1/compare?" + query + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return JSON.readTree(response.body());
    }

    private static void put(List<Map.Entry<String, String>> params, String prefix, Side side) {
        params.add(Map.entry(prefix + "version", side.version()));
        for (String instance : side.instances()) {
            params.add(Map.entry(prefix + "instance", instance));
        }
    }
}
