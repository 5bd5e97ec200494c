package io.cctflow.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The instructions of a Dockerfile that matter here, read statically (no Docker engine runs on
 * the machines that test this).
 *
 * @param path the file, relative to the repository root
 * @param from the image of every FROM, in order
 * @param user the last USER, if any
 * @param copySources the sources of every COPY and ADD, relative to the build context
 * @param buildTag the image named by the {@code docker build ... -t IMAGE} line of its comments
 */
record Dockerfile(Path path, List<String> from, Optional<String> user, List<String> copySources,
        Optional<String> buildTag) {
    private static final Pattern BUILD_TAG = Pattern.compile("docker build .*-t (\\S+)");

    static Dockerfile read(Path path) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Manifests.REPOSITORY.resolve(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> from = new ArrayList<>();
        List<String> copies = new ArrayList<>();
        Optional<String> user = Optional.empty();
        Optional<String> tag = Optional.empty();
        StringBuilder pending = new StringBuilder();
        for (String line : lines) {
            String t = line.strip();
            if (t.startsWith("#")) {
                Matcher m = BUILD_TAG.matcher(t);
                if (m.find()) {
                    tag = Optional.of(m.group(1));
                }
                continue;
            }
            if (t.endsWith("\\")) {
                pending.append(t, 0, t.length() - 1).append(' ');
                continue;
            }
            String instruction = (pending + t).strip();
            pending.setLength(0);
            if (instruction.isEmpty()) {
                continue;
            }
            String[] words = instruction.split("\\s+");
            switch (words[0].toUpperCase(java.util.Locale.ROOT)) {
                case "FROM" -> from.add(words[1]);
                case "USER" -> user = Optional.of(words[1]);
                case "COPY", "ADD" -> {
                    List<String> args = Arrays.stream(words).skip(1).filter(w -> !w.startsWith("--")).toList();
                    copies.addAll(args.subList(0, args.size() - 1));
                }
                default -> {
                }
            }
        }
        return new Dockerfile(path, from, user, copies, tag);
    }

    /** The Dockerfiles under k8s/images, one directory per image. */
    static List<Dockerfile> all() {
        try (var dirs = Files.list(Manifests.K8S.resolve("images"))) {
            return dirs.filter(Files::isDirectory).sorted()
                    .map(d -> read(Manifests.REPOSITORY.relativize(d.resolve("Dockerfile")))).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The image directory's name: agent, flink-job, query-service. */
    String imageName() {
        return path.getParent().getFileName().toString();
    }
}
