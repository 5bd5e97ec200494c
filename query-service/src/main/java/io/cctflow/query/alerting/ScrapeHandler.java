package io.cctflow.query.alerting;

import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.Reply;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A scrape of a registry: the format the {@code Accept} header asks for (Prometheus text,
 * OpenMetrics or protobuf), the body written whole before it is sent. Thread-safe.
 */
final class ScrapeHandler extends Handler.Abstract {
    private static final ExpositionFormats FORMATS = ExpositionFormats.init();
    private final PrometheusRegistry registry;

    ScrapeHandler(PrometheusRegistry registry) {
        this.registry = registry;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Reply reply = Reply.of(request);
        ExpositionFormatWriter writer = FORMATS.findWriter(request.getHeaders().get("Accept"));
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        try {
            writer.write(body, registry.scrape());
        } catch (IOException | RuntimeException e) {
            JsonHandler.respond(request, response, callback, () -> {
                throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
            });
            return true;
        }
        reply.send(response, callback, 200, writer.getContentType(), body.toByteArray(), Map.of());
        return true;
    }
}
