package io.cctflow.standalone;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What {@code standalone demo} says about its own comparison: once the second deployment runs, it
 * polls the compare endpoint (over the minutes both deployments run) and prints each new answer in words, "still collecting" while a side
 * has too few instances and windows for the noise to be estimated (the endpoint withholds its labels), then the
 * significant methods, until one is found or {@link #LIMIT} has passed. Used by one thread.
 */
final class DemoComparisonWatch {
    /** Between polls: about four per one-minute window. */
    static final Duration INTERVAL = Duration.ofSeconds(15);
    /** How long after the second deployment started the demo keeps reporting. */
    static final Duration LIMIT = Duration.ofMinutes(6);

    private static final ObjectMapper JSON = new ObjectMapper();

    private DemoComparisonWatch() {
    }

    /** Polls {@code query} until an answer names a significant method or {@link #LIMIT} passes. */
    static void follow(String query, Consumer<String> out) throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(query)).timeout(Duration.ofSeconds(30)).build();
        long deadline = System.nanoTime() + LIMIT.toNanos();
        out.accept("comparing the two over the minutes both run, every " + INTERVAL.toSeconds() + " s: curl '" + query
                + "'");
        String last = null;
        while (System.nanoTime() < deadline) {
            Optional<Answer> answer = Optional.empty();
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                answer = describe(response.statusCode(), response.body());
            } catch (IOException e) {
                // the API is local and up; a failed poll is retried like an answer without samples
            }
            if (answer.isPresent() && !answer.get().text().equals(last)) {
                last = answer.get().text();
                out.accept(last);
            }
            if (answer.isPresent() && answer.get().settled()) {
                return;
            }
            Thread.sleep(INTERVAL.toMillis()); // polling interval of a progress message, not a test wait
        }
        out.accept("comparison: no significant method within " + LIMIT.toMinutes() + " minutes of the second "
                + "deployment; the full answer: curl '" + query + "'");
    }

    /** An answer in words; settled when it names a significant method. */
    record Answer(String text, boolean settled) {
    }

    /** The answer of one poll in words; empty for an answer that is neither 200 nor "no samples" (404). */
    static Optional<Answer> describe(int status, String body) throws IOException {
        if (status == 404) {
            return Optional.of(new Answer("comparison " + DemoProcess.VERSION + " -> " + DemoProcess.NEXT_VERSION
                    + ": still collecting (no samples of " + DemoProcess.NEXT_VERSION + " yet)", false));
        }
        if (status != 200) {
            return Optional.empty();
        }
        JsonNode r = JSON.readTree(body);
        JsonNode s = r.get("significance");
        String sides = String.format(Locale.ROOT, "%,d samples in %s against %,d in %s", r.at("/a/samples").asLong(),
                replicates(s.get("replicatesA").asInt(), s.get("unitA").asText()), r.at("/b/samples").asLong(),
                replicates(s.get("replicatesB").asInt(), s.get("unitB").asText()));
        String head = "comparison " + r.at("/a/version").asText() + " -> " + r.at("/b/version").asText() + " ("
                + sides + "): ";
        if ("withheld".equals(s.get("model").asText())) {
            return Optional.of(new Answer(head + "still collecting: each side needs two or more instances or "
                    + "one-minute windows for the noise to be estimated, so no method is labelled yet", false));
        }
        if (!r.get("significant").asBoolean()) {
            return Optional.of(new Answer(head + "no significant change yet; still collecting", false));
        }
        StringBuilder text = new StringBuilder(head).append(r.get("message").asText()).append(':');
        for (JsonNode row : r.get("methods")) {
            if (row.at("/methodTime/significant").asBoolean() || row.at("/selfTime/significant").asBoolean()) {
                JsonNode m = row.get("methodTime");
                text.append(String.format(Locale.ROOT, "%n    %s %s: method time %.1f %% -> %.1f %% (q = %.1g)",
                        row.get("change").asText(), row.get("method").asText(), 100 * m.get("shareA").asDouble(),
                        100 * m.get("shareB").asDouble(), m.get("qValue").asDouble()));
            }
        }
        return Optional.of(new Answer(text.toString(), true));
    }

    private static String replicates(int count, String unit) {
        return "none".equals(unit) ? "one window" : count + " " + unit;
    }
}
