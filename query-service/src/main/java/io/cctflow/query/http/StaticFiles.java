package io.cctflow.query.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;

/**
 * Serves the web UI's files from the jar's classpath folder {@code root} ({@code /} is {@code
 * index.html}); any other path goes to {@code next}. The files hold no data, so they are served
 * without the bearer token: the UI asks for it when the API answers 401. Only names of letters,
 * digits, '-', '_' and '.' one level deep are looked up, so no path escapes the folder. Thread-safe.
 */
public final class StaticFiles implements HttpHandler {
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8", "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8", "svg", "image/svg+xml", "png", "image/png",
            "txt", "text/plain; charset=utf-8");
    private final String root;
    private final HttpHandler next;

    /** @param root classpath folder without leading or trailing slash, e.g. {@code ui} */
    public StaticFiles(String root, HttpHandler next) {
        this.root = root;
        this.next = next;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String name = path.equals("/") ? "index.html" : path.substring(1);
        String type = TYPES.get(name.substring(name.lastIndexOf('.') + 1));
        boolean get = "GET".equals(exchange.getRequestMethod()) || "HEAD".equals(exchange.getRequestMethod());
        if (get && type != null && name.matches("[A-Za-z0-9_-][A-Za-z0-9._-]*")) {
            try (InputStream in = StaticFiles.class.getClassLoader().getResourceAsStream(root + "/" + name)) {
                if (in != null) {
                    byte[] bytes = in.readAllBytes();
                    exchange.getResponseHeaders().set("Content-Type", type);
                    exchange.getResponseHeaders().set("Cache-Control", "no-cache");
                    boolean head = "HEAD".equals(exchange.getRequestMethod());
                    exchange.sendResponseHeaders(200, head ? -1 : bytes.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        if (!head) {
                            out.write(bytes);
                        }
                    }
                    return;
                }
            }
        }
        next.handle(exchange);
    }
}
