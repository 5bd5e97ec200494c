package io.cctflow.query.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Serves the web UI's files from the jar's classpath folder {@code root} ({@code /} is {@code
 * index.html}); any other path goes to {@code next}. The files hold no data, so they are served
 * without the bearer token: the UI asks for it when the API answers 401. Only names of letters,
 * digits, '-', '_' and '.' one level deep are looked up, so no path escapes the folder. Thread-safe.
 */
public final class StaticFiles extends Handler.Wrapper {
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8", "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8", "svg", "image/svg+xml", "png", "image/png",
            "txt", "text/plain; charset=utf-8");
    private final String root;

    /** @param root classpath folder without leading or trailing slash, e.g. {@code ui} */
    public StaticFiles(String root, Handler next) {
        super(next);
        this.root = root;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = request.getHttpURI().getDecodedPath();
        String name = path.equals("/") ? "index.html" : path.substring(1);
        String type = TYPES.get(name.substring(name.lastIndexOf('.') + 1));
        boolean get = "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod());
        if (get && type != null && name.matches("[A-Za-z0-9_-][A-Za-z0-9._-]*")) {
            byte[] bytes = read(root + "/" + name);
            if (bytes != null) {
                Reply.of(request).send(response, callback, 200, type, bytes, Map.of("Cache-Control", "no-cache"));
                return true;
            }
        }
        return super.handle(request, response, callback);
    }

    private static byte[] read(String resource) throws IOException {
        try (InputStream in = StaticFiles.class.getClassLoader().getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        }
    }
}
