package io.cctflow.query.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * Gzip of a body done once, for answers that are kept and sent many times ({@link
 * JsonHandler.Prerendered#gzipped}): the API server's gzip ({@link ApiServer}) deflates every
 * answer again on every request, 46-131 ms for a 4.5 MB flame-graph tree at level 1 on this
 * machine. Same level as the server's, so a kept answer is as large as a fresh one. Thread-safe.
 */
final class GzipBodies {
    /** The server's gzip level (and this one's): the fastest, see {@link ApiServer}. */
    static final int LEVEL = Deflater.BEST_SPEED;

    private GzipBodies() {
    }

    /** The gzip member of {@code bytes}. */
    static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 4 + 64);
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16) {
            {
                def.setLevel(LEVEL);
            }
        }) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot gzip in memory", e); // a ByteArrayOutputStream does not throw
        }
        return out.toByteArray();
    }

    /**
     * Whether the client takes gzip: {@code Accept-Encoding} lists {@code gzip} with a quality
     * above 0, as Jetty's own gzip decides it ({@code HttpField.contains}, which skips {@code q=0}).
     */
    static boolean accepted(Request request) {
        return request.getHeaders().contains(HttpHeader.ACCEPT_ENCODING, "gzip");
    }
}
