package io.cctflow.graph.read;

import io.cctflow.core.MethodId;
import io.cctflow.core.task.MatchType;
import io.cctflow.graph.Keys;
import io.cctflow.model.DeploymentRecord;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.TaskDefinitionRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Value;

/**
 * Reads what is stored about the fleet, apart from its samples: services' deployments and
 * instances, methods and their code fingerprints, task definitions.
 *
 * <p>Thread-safe as far as the {@link Driver} is; the caller owns the driver.
 */
public final class CatalogueReader {
    /** Method records kept across requests (about 200 bytes each). */
    static final int METHOD_CACHE_SIZE = 500_000;

    private final Reads reads;
    private final ConcurrentHashMap<Long, MethodRecord> methodCache = new ConcurrentHashMap<>();

    public CatalogueReader(Driver driver, String database) {
        this(driver, database, null);
    }

    /** @param transactionTimeout each read transaction's timeout; null: the server's default */
    public CatalogueReader(Driver driver, String database, Duration transactionTimeout) {
        this.reads = new Reads(driver, database, transactionTimeout);
    }

    /** Instances of one service, or of all services when {@code service} is null. */
    public List<InstanceRecord> instances(String service) {
        return reads.read("""
                MATCH (i:Instance)
                WHERE $service IS NULL OR i.service = $service
                RETURN i ORDER BY i.service, i.version, i.instanceId
                """, Reads.params("service", service), r -> toInstance(r.get("i")));
    }

    /** Deployments of one service, or of all services when {@code service} is null, with their sample windows. */
    public List<DeploymentRecord> deployments(String service) {
        return reads.read("""
                MATCH (d:Deployment)
                WHERE $service IS NULL OR d.service = $service
                OPTIONAL MATCH (d)-[:HAS_INSTANCE]->(i:Instance)
                RETURN d.service AS service, d.version AS version, d.firstSample AS first, d.lastSample AS last,
                       count(i) AS instances
                ORDER BY service, first, version
                """, Reads.params("service", service),
                r -> new DeploymentRecord(r.get("service").asString(), r.get("version").asString(),
                        r.get("first").asLong(0), r.get("last").asLong(0), r.get("instances").asInt()));
    }

    /** All overloads of {@code className.methodName}, or the one with {@code descriptor} if given. */
    public List<MethodRecord> methods(String className, String methodName, String descriptor) {
        return reads.read("""
                MATCH (m:Method {className: $className, name: $name})
                WHERE $descriptor IS NULL OR m.descriptor = $descriptor
                RETURN m.id AS id, m.className AS className, m.name AS name, m.descriptor AS descriptor
                ORDER BY m.descriptor
                """,
                Reads.params("className", className, "name", methodName, "descriptor", descriptor),
                r -> new MethodRecord(r.get("id").asLong(), r.get("className").asString(),
                        r.get("name").asString(), r.get("descriptor").asString()));
    }

    /**
     * Methods by id; ids that are not stored are left out. Served from the method cache where it
     * can be: a method's id is a hash of its class, name and descriptor, so a record read once can
     * never go stale. The missing ones are read in one query, returned as one row of columns (a row
     * per method costs the driver a record each).
     */
    public List<MethodRecord> methodsById(Collection<Long> ids) {
        List<MethodRecord> out = new ArrayList<>(ids.size());
        List<Long> missing = new ArrayList<>();
        for (Long id : ids) {
            MethodRecord cached = methodCache.get(id);
            if (cached != null) {
                out.add(cached);
            } else {
                missing.add(id);
            }
        }
        if (missing.isEmpty()) {
            return out;
        }
        List<MethodRecord> read = reads.read("""
                UNWIND $ids AS id
                MATCH (m:Method {id: id})
                RETURN collect(m.id) AS id, collect(m.className) AS className, collect(m.name) AS name,
                       collect(m.descriptor) AS descriptor
                """, Reads.params("ids", missing), CatalogueReader::toMethods).get(0);
        if (methodCache.size() + read.size() > METHOD_CACHE_SIZE) {
            methodCache.clear(); // bounded: refills with what later reads need
        }
        for (MethodRecord m : read) {
            if (read.size() <= METHOD_CACHE_SIZE) {
                methodCache.put(m.id(), m);
            }
        }
        out.addAll(read);
        return out;
    }

    /** The method records of one {@link #methodsById} query: parallel columns of one row. */
    private static List<MethodRecord> toMethods(org.neo4j.driver.Record r) {
        long[] id = Reads.longs(r.get("id"));
        List<String> className = r.get("className").asList(Value::asString);
        List<String> name = r.get("name").asList(Value::asString);
        List<String> descriptor = r.get("descriptor").asList(Value::asString);
        if (className.size() != id.length || name.size() != id.length || descriptor.size() != id.length) {
            // collect() skips nulls, so a method missing a property would shift the columns
            throw new IllegalStateException("stored methods lack properties (" + id.length + " ids, "
                    + className.size() + " classes, " + name.size() + " names, " + descriptor.size() + " descriptors)");
        }
        List<MethodRecord> out = new ArrayList<>(id.length);
        for (int i = 0; i < id.length; i++) {
            out.add(new MethodRecord(id[i], className.get(i), name.get(i), descriptor.get(i)));
        }
        return out;
    }

    /** Signatures ({@code Class.name(descriptor)}) of the given method ids; ids not stored are left out. */
    public Map<Long, String> signatures(Collection<Long> methodIds) {
        Map<Long, String> out = new HashMap<>();
        for (MethodRecord m : methodsById(methodIds)) {
            out.put(m.id(), m.signature());
        }
        return out;
    }

    /**
     * The bytecode fingerprints of a deployment's methods, keyed by signature exactly as
     * {@link MethodRecord#signature()} builds it ({@code className + "." + methodName + descriptor});
     * empty when no code manifest of the deployment was stored.
     */
    public Map<String, Long> methodFingerprints(String service, String version) {
        Map<String, Long> out = new HashMap<>();
        reads.read("""
                MATCH (:Deployment {key: $deployment})-[:HAS_CODE]->(c:CodeClass)
                RETURN c.className AS className, c.methodNames AS names, c.descriptors AS descriptors,
                       c.fingerprints AS fingerprints
                """, Reads.params("deployment", Keys.deployment(service, version)), r -> {
                    String className = r.get("className").asString();
                    Value names = r.get("names");
                    Value descriptors = r.get("descriptors");
                    Value fingerprints = r.get("fingerprints");
                    for (int i = 0; i < names.size(); i++) {
                        out.put(MethodId.signature(className, names.get(i).asString(), descriptors.get(i).asString()),
                                fingerprints.get(i).asLong());
                    }
                    return className;
                });
        return out;
    }

    /**
     * The accepted task definitions that apply to {@code service} (its own and those for every
     * service), or all of them when {@code service} is null; ordered by id.
     */
    public List<TaskDefinitionRecord> taskDefinitions(String service) {
        return reads.read("""
                MATCH (d:TaskDefinition)
                WHERE $service IS NULL OR d.service IS NULL OR d.service = $service
                RETURN d.id AS id, d.service AS service, d.matchType AS matchType, d.pattern AS pattern,
                       d.nameTemplate AS nameTemplate, d.updatedMillis AS updatedMillis
                ORDER BY d.id
                """, Reads.params("service", service),
                r -> new TaskDefinitionRecord(r.get("id").asString(), r.get("service").asString(null),
                        MatchType.valueOf(r.get("matchType").asString()), r.get("pattern").asString(),
                        r.get("nameTemplate").asString(), r.get("updatedMillis").asLong()));
    }

    private static InstanceRecord toInstance(Value i) {
        Map<String, String> labels = new HashMap<>();
        for (Value kv : i.get("labels").values()) {
            String s = kv.asString();
            int eq = s.indexOf('=');
            labels.put(s.substring(0, eq), s.substring(eq + 1));
        }
        return new InstanceRecord(i.get("service").asString(), i.get("version").asString(),
                i.get("instanceId").asString(), i.get("host").asString(), i.get("pid").asLong(),
                i.get("startTime").asLong(), labels, i.get("firstSample").asLong(), i.get("lastSample").asLong());
    }
}
