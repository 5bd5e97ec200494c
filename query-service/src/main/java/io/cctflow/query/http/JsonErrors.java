package io.cctflow.query.http;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The errors Jetty answers itself, before any handler (a URI too long, an ambiguous path
 * encoding, a bad header), as the API's own: {@code {"error": ...}} naming the status, never an
 * HTML page or an exception's text. Stateless.
 */
final class JsonErrors implements Request.Handler {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = request.getAttribute(ErrorHandler.ERROR_STATUS) instanceof Integer s ? s : response.getStatus();
        String reason = request.getAttribute(ErrorHandler.ERROR_MESSAGE) instanceof String m && !m.isBlank()
                && !m.contains("Exception") ? m : HttpStatus.getMessage(status);
        JsonHandler.drainBody(request);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, JsonHandler.JSON_TYPE);
        response.write(true, ByteBuffer.wrap(JsonHandler.errorBody("HTTP " + status + ": " + reason)), callback);
        return true;
    }
}
