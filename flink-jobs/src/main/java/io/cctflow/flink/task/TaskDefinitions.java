package io.cctflow.flink.task;

import io.cctflow.core.task.TaskDefinition;
import io.cctflow.model.TaskDefinitionRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * The accepted task definitions at one moment, with one {@link ServiceLabeller} per service, made
 * on first use from the definitions that apply to that service. A change makes a new instance
 * ({@link #with}); the old one stays usable, so the labels before and after a change can be
 * compared. Labellers of services a change does not touch are carried over, so labels computed
 * with them stay valid. Not thread-safe.
 */
public final class TaskDefinitions {
    private final Map<String, TaskDefinitionRecord> byId;
    private final LongFunction<String> qualifiedNameOf;
    private final Map<String, ServiceLabeller> labellers = new HashMap<>();

    private TaskDefinitions(Map<String, TaskDefinitionRecord> byId, LongFunction<String> qualifiedNameOf) {
        this.byId = byId;
        this.qualifiedNameOf = qualifiedNameOf;
    }

    /**
     * @param definitions accepted (valid) definitions
     * @param qualifiedNameOf method id to {@code className.methodName}; must know every method it is asked for
     */
    public static TaskDefinitions of(Iterable<TaskDefinitionRecord> definitions, LongFunction<String> qualifiedNameOf) {
        Map<String, TaskDefinitionRecord> byId = new TreeMap<>();
        for (TaskDefinitionRecord d : definitions) {
            byId.put(d.id(), d);
        }
        return new TaskDefinitions(byId, qualifiedNameOf);
    }

    /** The definition with this id, or {@code null}. */
    public TaskDefinitionRecord get(String id) {
        return byId.get(id);
    }

    /**
     * These definitions with {@code id} set to {@code definition}, or removed when it is {@code null}.
     * Labellers of services that neither the old nor the new definition applies to are shared.
     */
    public TaskDefinitions with(String id, TaskDefinitionRecord definition) {
        TaskDefinitionRecord previous = byId.get(id);
        Map<String, TaskDefinitionRecord> next = new TreeMap<>(byId);
        if (definition == null) {
            next.remove(id);
        } else {
            next.put(id, definition);
        }
        TaskDefinitions changed = new TaskDefinitions(next, qualifiedNameOf);
        labellers.forEach((service, labeller) -> {
            if (!touches(previous, definition, service)) {
                changed.labellers.put(service, labeller);
            }
        });
        return changed;
    }

    /** Whether replacing {@code previous} by {@code next} (either may be null) can change labels of {@code service}. */
    public static boolean touches(TaskDefinitionRecord previous, TaskDefinitionRecord next, String service) {
        return (previous != null && previous.appliesTo(service)) || (next != null && next.appliesTo(service));
    }

    /** The labeller of one service. */
    public ServiceLabeller forService(String service) {
        return labellers.computeIfAbsent(service, s -> {
            List<TaskDefinition> applying = new ArrayList<>();
            for (TaskDefinitionRecord d : byId.values()) {
                if (d.appliesTo(s)) {
                    applying.add(d.toDefinition());
                }
            }
            return new ServiceLabeller(qualifiedNameOf, applying);
        });
    }
}
