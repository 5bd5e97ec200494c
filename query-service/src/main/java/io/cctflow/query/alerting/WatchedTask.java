package io.cctflow.query.alerting;

/**
 * One entry of {@code alerting.tasks}: a task of a service, written {@code service:task}, whose
 * task roots the watched methods of that service are also measured against (seed 002 Eq. 3.25).
 * The task name is as the samples job labels nodes (a definition's name, or its template filled in).
 */
public record WatchedTask(String service, String task) {

    /** @throws IllegalArgumentException naming the entry and the expected form */
    public static WatchedTask parse(String entry) {
        int colon = entry.indexOf(':');
        if (colon <= 0 || entry.substring(colon + 1).isBlank()) {
            throw new IllegalArgumentException("entry '" + entry + "' must be service:task, e.g. checkout:payment");
        }
        return new WatchedTask(entry.substring(0, colon).trim(), entry.substring(colon + 1).trim());
    }

    @Override
    public String toString() {
        return service + ":" + task;
    }
}
