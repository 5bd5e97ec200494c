package io.cctflow.standalone.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Asks a query service's {@code /api/v1/compare} for two deployments and reads its answer. */
public final class CompareApi {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private CompareApi() {
    }

    /**
     * The comparison of version {@code a} with {@code b} of {@code service}, up to 100 methods; the
     * answer must be 200. Prints its {@link #summary} (surefire keeps it in the test's output file:
     * the figures quoted in notes and READMEs).
     */
    public static JsonNode compare(int port, String service, String a, String b) throws Exception {
        return compare(port, service, a, b, "");
    }

    /** {@link #compare(int, String, String, String)} at the false discovery rate {@code fdr}. */
    public static JsonNode compare(int port, String service, String a, String b, double fdr) throws Exception {
        return compare(port, service, a, b, "&fdr=" + fdr);
    }

    private static JsonNode compare(int port, String service, String a, String b, String more) throws Exception {
        String query = "/api/v1/compare?service=" + service + "&a.version=" + a + "&b.version=" + b + "&top=100" + more;
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + query)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("%s -> %s", query, response.body()).isEqualTo(200);
        JsonNode body = JSON.readTree(response.body());
        System.out.printf("%s vs %s: %s%n", a, b, summary(body));
        return body;
    }

    /** The method row of {@code method} (with descriptor). */
    public static JsonNode row(JsonNode body, String method) {
        for (JsonNode row : body.get("methods")) {
            if (row.get("method").asText().equals(method)) {
                return row;
            }
        }
        throw new AssertionError("no row for " + method + " in " + summary(body));
    }

    /** The significance block and the rows, for failure messages and the test's output. */
    public static String summary(JsonNode body) {
        StringBuilder sb = new StringBuilder(body.get("significance").toString());
        sb.append(String.format("%n  samples %d -> %d", body.at("/a/samples").asLong(), body.at("/b/samples").asLong()));
        for (JsonNode row : body.get("methods")) {
            sb.append(String.format("%n  %s %s method time %.4f -> %.4f q %.3g, self time %.4f -> %.4f q %.3g",
                    row.get("change").asText(), row.get("method").asText(),
                    row.at("/methodTime/shareA").asDouble(), row.at("/methodTime/shareB").asDouble(),
                    row.at("/methodTime/qValue").asDouble(), row.at("/selfTime/shareA").asDouble(),
                    row.at("/selfTime/shareB").asDouble(), row.at("/selfTime/qValue").asDouble()));
        }
        return sb.toString();
    }
}
