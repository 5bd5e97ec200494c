package io.cctflow.bench.parcs;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the Markdown of a release comparison again from its JSON ({@code <app>.json} →
 * {@code <app>.md} next to it), so a change to the Markdown layout needs no new measurement.
 *
 * <pre>
 * java -cp 'bench/target/classes:bench/target/lib/*' io.cctflow.bench.parcs.RenderReport bench/reports/parcs/jython.json
 * </pre>
 */
public final class RenderReport {
    private RenderReport() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: RenderReport <app>.json...");
            System.exit(2);
        }
        // derived values the harness also wrote (e.g. shares computed from components) are not read back
        ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        for (String arg : args) {
            Path in = Path.of(arg);
            ReleaseReport report = json.readValue(in.toFile(), ReleaseReport.class);
            String name = in.getFileName().toString().replaceFirst("\\.json$", "") + ".md";
            Path out = in.resolveSibling(name);
            Files.writeString(out, report.markdown());
            System.out.println("wrote " + out);
        }
    }
}
