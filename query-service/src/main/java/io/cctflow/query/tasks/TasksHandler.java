package io.cctflow.query.tasks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.cctflow.core.task.MatchType;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.model.TaskDefinitionRecord;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code /api/v1/tasks} and {@code /api/v1/tasks/{id}}: task definitions. {@code GET} lists what
 * the samples job has accepted (stored in Neo4j); {@code POST} creates, {@code PUT} changes and
 * {@code DELETE} deletes one by publishing to the task topic (202: the job applies it
 * asynchronously and relabels the trees). A definition is validated with cct-core's {@link
 * io.cctflow.core.task.TaskDefinition} first, so a bad one is a 400 with the reason, never a
 * dead-lettered record. Thread-safe.
 */
public final class TasksHandler extends Handler.Abstract {
    public static final String PATH = "/api/v1/tasks";
    static final int MAX_BODY = 64 * 1024;
    private static final Set<String> FIELDS = Set.of("id", "service", "matchType", "pattern", "nameTemplate");

    private final CatalogueReader catalogue;
    private final TaskPublisher publisher;
    private final Clock clock;

    public TasksHandler(CatalogueReader catalogue, TaskPublisher publisher, Clock clock) {
        this.catalogue = catalogue;
        this.publisher = publisher;
        this.clock = clock;
    }

    /** A definition as the API shows it. */
    public record Definition(String id, String service, String matchType, String pattern, String nameTemplate,
            String updated) {
        static Definition of(TaskDefinitionRecord r) {
            return new Definition(r.id(), r.service(), r.matchType().name(), r.pattern(), r.nameTemplate(),
                    java.time.Instant.ofEpochMilli(r.updatedMillis()).toString());
        }
    }

    public record Listing(String service, List<Definition> tasks) {
    }

    public record Accepted(String status, String topic, Definition task) {
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        JsonHandler.respond(request, response, callback, () -> dispatch(request));
        return true;
    }

    private Object dispatch(Request request) {
        String path = request.getHttpURI().getDecodedPath();
        String id = path.length() > PATH.length() + 1 ? path.substring(PATH.length() + 1) : null;
        if (!path.equals(PATH) && !path.equals(PATH + "/") && (id == null || id.contains("/"))) {
            throw ApiException.notFound("no such endpoint " + path + "; use " + PATH + " or " + PATH + "/{id}");
        }
        QueryParams params = new QueryParams(request.getHttpURI().getQuery());
        String method = request.getMethod();
        if (id == null) {
            return switch (method) {
                case "GET" -> list(params);
                case "POST" -> create(body(request));
                default -> throw new ApiException(405, "method " + method + " not allowed on " + PATH
                        + "; use GET or POST");
            };
        }
        params.allowOnly(Set.of());
        return switch (method) {
            case "GET" -> Definition.of(existing(id));
            case "PUT" -> change(id, body(request));
            case "DELETE" -> delete(id);
            default -> throw new ApiException(405, "method " + method + " not allowed on " + PATH
                    + "/{id}; use GET, PUT or DELETE");
        };
    }

    private Listing list(QueryParams params) {
        params.allowOnly(Set.of("service"));
        String service = params.optional("service").orElse(null);
        return new Listing(service, catalogue.taskDefinitions(service).stream().map(Definition::of).toList());
    }

    private Object create(JsonNode body) {
        TaskDefinitionRecord d = validated(null, body);
        if (find(d.id()) != null) {
            throw new ApiException(409, "task definition '" + d.id() + "' exists; change it with PUT " + PATH + "/"
                    + d.id());
        }
        return publish(d);
    }

    private Object change(String id, JsonNode body) {
        existing(id);
        return publish(validated(id, body));
    }

    private Object delete(String id) {
        TaskDefinitionRecord d = existing(id);
        try {
            publisher.delete(id);
        } catch (TaskPublisher.PublishException e) {
            throw new ApiException(503, e.getMessage() + "; try again when Kafka is reachable");
        }
        return new JsonHandler.Status(202, new Accepted("deleted", publisher.topic(), Definition.of(d)));
    }

    private Object publish(TaskDefinitionRecord d) {
        try {
            publisher.publish(d);
        } catch (TaskPublisher.PublishException e) {
            throw new ApiException(503, e.getMessage() + "; try again when Kafka is reachable");
        }
        return new JsonHandler.Status(202, new Accepted("published", publisher.topic(), Definition.of(d)));
    }

    private TaskDefinitionRecord find(String id) {
        return catalogue.taskDefinitions(null).stream().filter(d -> d.id().equals(id)).findFirst().orElse(null);
    }

    private TaskDefinitionRecord existing(String id) {
        TaskDefinitionRecord d = find(id);
        if (d == null) {
            throw ApiException.notFound("unknown task definition '" + id + "'; GET " + PATH + " lists them");
        }
        return d;
    }

    /** The definition of a request body, validated by cct-core; 400 naming the field otherwise. */
    private TaskDefinitionRecord validated(String pathId, JsonNode body) {
        for (Iterator<String> it = body.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                throw ApiException.badRequest("unknown field '" + f + "'; a task definition has " + FIELDS);
            }
        }
        String id = text(body, "id", pathId == null);
        if (pathId != null) {
            if (id != null && !id.equals(pathId)) {
                throw ApiException.badRequest("field 'id' ('" + id + "') differs from the id in the path ('" + pathId
                        + "'); ids cannot be changed, delete and create instead");
            }
            id = pathId;
        }
        String service = text(body, "service", false);
        String type = text(body, "matchType", true);
        MatchType matchType;
        try {
            matchType = MatchType.valueOf(type.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("field 'matchType' must be PREFIX or REGEX, got '" + type + "'");
        }
        TaskDefinitionRecord d = new TaskDefinitionRecord(id, service, matchType, text(body, "pattern", true),
                text(body, "nameTemplate", true), clock.millis());
        try {
            d.toDefinition();
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        return d;
    }

    private static String text(JsonNode body, String field, boolean required) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw ApiException.badRequest("missing field '" + field + "' in the task definition");
            }
            return null;
        }
        if (!v.isTextual() || v.asText().isBlank()) {
            throw ApiException.badRequest("field '" + field + "' must be a non-empty string");
        }
        return v.asText();
    }

    private static JsonNode body(Request request) {
        byte[] bytes;
        try (InputStream in = Content.Source.asInputStream(request)) {
            bytes = in.readNBytes(MAX_BODY + 1);
        } catch (IOException e) {
            throw ApiException.badRequest("could not read the request body: " + e.getMessage());
        }
        if (bytes.length > MAX_BODY) {
            throw ApiException.badRequest("request body larger than " + MAX_BODY + " bytes");
        }
        try {
            JsonNode node = JsonHandler.json().readTree(bytes);
            if (node == null || !node.isObject()) {
                throw ApiException.badRequest("the request body must be a JSON object: {\"id\": ..., \"matchType\":"
                        + " \"PREFIX\"|\"REGEX\", \"pattern\": ..., \"nameTemplate\": ..., \"service\": optional}");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("the request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw ApiException.badRequest("could not read the request body: " + e.getMessage());
        }
    }
}
