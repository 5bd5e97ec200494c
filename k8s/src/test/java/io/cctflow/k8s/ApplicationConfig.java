package io.cctflow.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import io.cctflow.agent.AgentConfig;
import io.cctflow.flink.JobTopics;
import io.cctflow.flink.SamplesJobConfig;
import io.cctflow.query.QueryServiceConfig;
import io.cctflow.query.QueryServiceSettings;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * cctflow's own configuration in the manifests, read by the deployables' own configuration
 * classes (so an unknown key or a bad value fails here as it would at start-up), and the
 * references between the parts: topics, the Kafka bootstrap address, the Neo4j URI, the Secret
 * holding the Neo4j password, the agent jar's path.
 */
final class ApplicationConfig {
    private static final Pattern JAVAAGENT = Pattern.compile("-javaagent:(\\S+?\\.jar)");
    private static final Pattern STACK_DEPTH = Pattern.compile("-XX:FlightRecorderOptions[:=]stackdepth=(\\d+)");
    private static final Set<String> DURABLE_SCHEMES = Set.of("s3", "s3a", "s3p", "gs", "abfs", "abfss", "wasbs", "hdfs",
            "oss");

    private final List<Manifest> manifests;
    private final List<PodSpecs.Pod> pods;
    private final List<String> problems = new ArrayList<>();

    private ApplicationConfig(List<Manifest> manifests) {
        this.manifests = manifests;
        this.pods = PodSpecs.of(manifests);
    }

    /** Every inconsistency, one line each; empty when the parts fit together. */
    static List<String> check(List<Manifest> manifests) {
        ApplicationConfig c = new ApplicationConfig(manifests);
        Optional<SamplesJobConfig> job = c.checkJob();
        job.ifPresent(c::checkQueryService);
        job.ifPresent(c::checkAgents);
        return c.problems;
    }

    /** The samples job: its arguments and --config file, against the topics, Kafka and Neo4j. */
    private Optional<SamplesJobConfig> checkJob() {
        List<Manifest> jobs = ofKind("FlinkDeployment");
        if (jobs.size() != 1) {
            problems.add("expected one FlinkDeployment, found " + jobs.size());
            return Optional.empty();
        }
        Manifest m = jobs.get(0);
        JsonNode spec = m.tree().path("spec");
        Map<String, String> values = new LinkedHashMap<>();
        List<String> args = new ArrayList<>();
        spec.path("job").path("args").forEach(a -> args.add(a.asText()));
        Map<String, String> given = pairs(m, args);
        String file = given.remove("config");
        if (file != null) {
            values.putAll(secretFile(m, file));
        }
        values.putAll(given);
        SamplesJobConfig job;
        try {
            job = SamplesJobConfig.from(values);
        } catch (IllegalArgumentException e) {
            problems.add(m + ": job configuration: " + e.getMessage());
            return Optional.empty();
        }
        requireTopic(m, SamplesJobConfig.SAMPLES_TOPIC, job.samplesTopic(), false, JobTopics.agentTopicConfigs());
        requireTopic(m, SamplesJobConfig.MANIFESTS_TOPIC, job.manifestsTopic(), false, JobTopics.agentTopicConfigs());
        requireTopic(m, SamplesJobConfig.TASKS_TOPIC, job.tasksTopic(), true, Map.of());
        requireTopic(m, SamplesJobConfig.DEAD_LETTER_TOPIC, job.deadLetterTopic(), false, Map.of());
        requireKafka(m, SamplesJobConfig.BOOTSTRAP_SERVERS, job.bootstrapServers());
        requireNeo4j(m, SamplesJobConfig.NEO4J_URI, job.graph().uri());
        int parallelism = spec.path("job").path("parallelism").asInt();
        if (job.parallelism() != parallelism) {
            problems.add(m + ": --parallelism " + job.parallelism() + " differs from spec.job.parallelism " + parallelism);
        }
        topic(job.samplesTopic()).ifPresent(t -> {
            int partitions = t.tree().path("spec").path("partitions").asInt();
            if (partitions < parallelism || partitions % parallelism != 0) {
                problems.add(m + ": parallelism " + parallelism + " does not divide " + t + "'s " + partitions
                        + " partitions");
            }
        });
        JsonNode flink = spec.path("flinkConfiguration");
        if (!"rocksdb".equals(job.stateBackend()) || !"rocksdb".equals(flink.path("state.backend.type").asText())) {
            problems.add(m + ": the state backend must be RocksDB in the job and in flinkConfiguration");
        }
        for (String key : List.of("execution.checkpointing.dir", "execution.checkpointing.savepoint-dir",
                "high-availability.storageDir")) {
            String uri = flink.path(key).asText();
            String scheme = uri.contains("://") ? uri.substring(0, uri.indexOf("://")) : "";
            if (!DURABLE_SCHEMES.contains(scheme)) {
                problems.add(m + ": flinkConfiguration " + key + " '" + uri + "' is not on durable storage");
            }
        }
        if (!"savepoint".equals(spec.path("job").path("upgradeMode").asText())) {
            problems.add(m + ": spec.job.upgradeMode must be savepoint");
        }
        return Optional.of(job);
    }

    /** {@code --key value} pairs; a malformed list is a problem. */
    private Map<String, String> pairs(Manifest m, List<String> args) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i += 2) {
            if (!args.get(i).startsWith("--") || i + 1 >= args.size()) {
                problems.add(m + ": job argument '" + args.get(i) + "' is not --key followed by a value");
                return pairs;
            }
            pairs.put(args.get(i).substring(2), args.get(i + 1));
        }
        return pairs;
    }

    /** The properties file a pod of the owner mounts at the path from a Secret item. */
    private Map<String, String> secretFile(Manifest owner, String path) {
        for (PodSpecs.Pod pod : pods) {
            if (pod.owner() != owner) {
                continue;
            }
            for (JsonNode c : pod.containers()) {
                for (JsonNode mount : c.path("volumeMounts")) {
                    String dir = mount.path("mountPath").asText() + "/";
                    if (!path.startsWith(dir)) {
                        continue;
                    }
                    JsonNode secret = pod.volume(mount.path("name").asText()).map(v -> v.path("secret"))
                            .orElse(com.fasterxml.jackson.databind.node.MissingNode.getInstance());
                    String file = path.substring(dir.length());
                    for (JsonNode item : secret.path("items")) {
                        if (item.path("path").asText().equals(file)) {
                            return properties(owner, secret.path("secretName").asText(), item.path("key").asText());
                        }
                    }
                }
            }
        }
        problems.add(owner + ": --config " + path + " is no file mounted from a Secret item");
        return Map.of();
    }

    private Map<String, String> properties(Manifest owner, String secret, String key) {
        Optional<Manifest> s = find("Secret", owner.namespace(), secret);
        String text = s.map(x -> x.tree().path("stringData").path(key).asText("")).orElse("");
        if (text.isEmpty()) {
            problems.add(owner + ": Secret " + secret + " has no stringData " + key + " (the example must show the file)");
            return Map.of();
        }
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Map<String, String> m = new HashMap<>();
        p.stringPropertyNames().forEach(n -> m.put(n, p.getProperty(n)));
        return m;
    }

    /** The query service: CCTFLOW_ variables are its keys, and it talks to the job's Kafka, topic and Neo4j. */
    private void checkQueryService(SamplesJobConfig job) {
        List<PodSpecs.Pod> services = podsWithImage("cctflow/query-service:");
        if (services.isEmpty()) {
            problems.add("no pod runs the query service image");
        }
        for (PodSpecs.Pod pod : services) {
            JsonNode c = containerWithImage(pod, "cctflow/query-service:");
            Map<String, String> env = environment(pod, c);
            Map<String, String> byEnv = new HashMap<>();
            QueryServiceSettings.KEYS.environmentVariables().forEach((key, variable) -> byEnv.put(variable, key));
            Map<String, String> keys = new HashMap<>();
            env.forEach((name, value) -> {
                if (!name.startsWith("CCTFLOW_")) {
                    return;
                }
                String key = byEnv.get(name);
                if (key == null) {
                    problems.add(pod.owner() + ": " + name + " is no query-service or alerting key");
                } else {
                    keys.put(key, value.startsWith("secret:") ? "from-a-secret" : value);
                }
            });
            QueryServiceConfig config;
            try {
                config = QueryServiceSettings.from(keys).service();
            } catch (IllegalArgumentException e) {
                problems.add(pod.owner() + ": query-service configuration: " + e.getMessage());
                continue;
            }
            if (config.bindAddress().startsWith("127.") || config.bindAddress().equals("localhost")) {
                problems.add(pod.owner() + ": bind " + config.bindAddress() + " is unreachable from other pods");
            }
            if (!Containers.hasPort(c, com.fasterxml.jackson.databind.node.IntNode.valueOf(config.port()))) {
                problems.add(pod.owner() + ": port " + config.port() + " is not a containerPort");
            }
            if (!config.tasksTopic().equals(job.tasksTopic())) {
                problems.add(pod.owner() + ": topic.tasks " + config.tasksTopic() + " is not the job's " + job.tasksTopic());
            }
            requireKafka(pod.owner(), QueryServiceConfig.BOOTSTRAP_SERVERS, config.bootstrapServers());
            requireNeo4j(pod.owner(), QueryServiceConfig.NEO4J_URI, config.graph().uri());
            requireNeo4jPasswordSecret(pod.owner(), env.get(environmentName(QueryServiceConfig.NEO4J_PASSWORD)));
            requireProbe(pod.owner(), c, "livenessProbe", "/healthz");
            requireProbe(pod.owner(), c, "readinessProbe", "/readyz");
        }
    }

    /** Every agent-injected container: jar copied by an init container, keys the agent knows, the job's topics. */
    private void checkAgents(SamplesJobConfig job) {
        Set<String> agentVariables = new TreeSet<>();
        Matcher names = Pattern.compile("`(CCTFLOW_[A-Z0-9_]+)`").matcher(AgentConfig.describeKeys());
        while (names.find()) {
            agentVariables.add(names.group(1));
        }
        int agents = 0;
        for (PodSpecs.Pod pod : pods) {
            for (JsonNode c : pod.spec().path("containers")) {
                Map<String, String> env = environment(pod, c);
                Matcher agent = JAVAAGENT.matcher(env.getOrDefault("JAVA_TOOL_OPTIONS", ""));
                if (!agent.find()) {
                    continue;
                }
                agents++;
                String where = pod.owner() + " container " + c.path("name").asText();
                requireCopiedJar(pod, c, agent.group(1), where);
                env.keySet().stream().filter(n -> n.startsWith("CCTFLOW_") && !agentVariables.contains(n))
                        .forEach(n -> problems.add(where + ": " + n + " is no agent key; known: " + agentVariables));
                List<String> warnings = new ArrayList<>();
                AgentConfig config = AgentConfig.load(null, k -> null, env::get, () -> "default-instance", warnings::add);
                warnings.forEach(w -> problems.add(where + ": agent configuration: " + w));
                Matcher depth = STACK_DEPTH.matcher(env.get("JAVA_TOOL_OPTIONS"));
                if (!depth.find() || Integer.parseInt(depth.group(1)) < config.stackDepth()) {
                    problems.add(where + ": JAVA_TOOL_OPTIONS must set -XX:FlightRecorderOptions:stackdepth to at least "
                            + config.stackDepth());
                }
                if (!config.topic().equals(job.samplesTopic())) {
                    problems.add(where + ": agent topic " + config.topic() + " is not the job's " + job.samplesTopic());
                }
                if (!config.manifestTopic().equals(job.manifestsTopic())) {
                    problems.add(where + ": agent manifest.topic " + config.manifestTopic() + " is not the job's "
                            + job.manifestsTopic());
                }
                requireKafka(pod.owner(), AgentConfig.BOOTSTRAP_SERVERS, config.bootstrapServers());
                requireDownwardApi(pod, c, where);
            }
        }
        if (agents == 0) {
            problems.add("no container loads the agent (JAVA_TOOL_OPTIONS with -javaagent)");
        }
    }

    /** The jar path is in a volume an init container of the same pod copies the jar into. */
    private void requireCopiedJar(PodSpecs.Pod pod, JsonNode container, String jar, String where) {
        Optional<String> volume = volumeAt(container, jar);
        if (volume.isEmpty()) {
            problems.add(where + ": -javaagent " + jar + " is in no mounted volume");
            return;
        }
        String relative = jar.substring(mountPath(container, volume.get()).length());
        for (JsonNode init : pod.spec().path("initContainers")) {
            JsonNode command = init.path("command");
            String target = command.path(command.size() - 1).asText();
            Optional<String> initVolume = volumeAt(init, target);
            if (initVolume.equals(volume) && target.substring(mountPath(init, volume.get()).length()).equals(relative)) {
                return;
            }
        }
        problems.add(where + ": no init container copies the agent jar to " + jar);
    }

    private void requireDownwardApi(PodSpecs.Pod pod, JsonNode container, String where) {
        Map<String, String> fieldPaths = new HashMap<>();
        for (JsonNode e : container.path("env")) {
            fieldPaths.put(e.path("name").asText(), e.path("valueFrom").path("fieldRef").path("fieldPath").asText(""));
        }
        for (String name : List.of("CCTFLOW_SERVICE", "CCTFLOW_VERSION")) {
            if (!fieldPaths.getOrDefault(name, "").startsWith("metadata.labels[")) {
                problems.add(where + ": " + name + " must come from a pod label (downward API)");
            }
        }
        if (!fieldPaths.getOrDefault("CCTFLOW_INSTANCE", "").equals("metadata.name")) {
            problems.add(where + ": CCTFLOW_INSTANCE must be the pod's name (downward API)");
        }
    }

    private static Optional<String> volumeAt(JsonNode container, String path) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (path.startsWith(mount.path("mountPath").asText() + "/")) {
                return Optional.of(mount.path("name").asText());
            }
        }
        return Optional.empty();
    }

    private static String mountPath(JsonNode container, String volume) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (mount.path("name").asText().equals(volume)) {
                return mount.path("mountPath").asText();
            }
        }
        throw new IllegalArgumentException("no mount of " + volume);
    }

    private void requireProbe(Manifest owner, JsonNode container, String probe, String path) {
        String given = container.path(probe).path("httpGet").path("path").asText();
        if (!given.equals(path)) {
            problems.add(owner + ": " + probe + " must GET " + path + ", is '" + given + "'");
        }
    }

    /** The query service's Neo4j password comes from the Secret Neo4j's NEO4J_AUTH comes from. */
    private void requireNeo4jPasswordSecret(Manifest owner, String value) {
        for (PodSpecs.Pod neo4j : pods) {
            for (JsonNode c : neo4j.spec().path("containers")) {
                if (!c.path("image").asText().startsWith("neo4j:")) {
                    continue;
                }
                String auth = environment(neo4j, c).getOrDefault("NEO4J_AUTH", "");
                String secret = auth.startsWith("secret:") ? auth.substring(0, auth.indexOf('/')) : auth;
                if (value == null || !value.startsWith(secret + "/")) {
                    problems.add(owner + ": the Neo4j password (" + value + ") is not from the Secret of Neo4j's NEO4J_AUTH ("
                            + auth + ")");
                }
            }
        }
    }

    /** The topic exists, compacted or not, with {@code configs} (e.g. the size limit of agents' records). */
    private void requireTopic(Manifest owner, String key, String name, boolean compacted, Map<String, String> configs) {
        Optional<Manifest> topic = topic(name);
        if (topic.isEmpty()) {
            problems.add(owner + ": " + key + " " + name + " is no KafkaTopic");
            return;
        }
        String policy = topic.get().tree().path("spec").path("config").path("cleanup.policy").asText("delete");
        if (compacted != policy.contains("compact")) {
            problems.add(topic.get() + ": cleanup.policy " + policy + (compacted ? " must" : " must not") + " compact ("
                    + key + ")");
        }
        JsonNode config = topic.get().tree().path("spec").path("config");
        configs.forEach((k, v) -> {
            if (!config.path(k).asText("").equals(v)) {
                problems.add(topic.get() + ": " + k + " " + config.path(k).asText("(unset)") + " must be " + v + " ("
                        + key + ", as the agents send; JobTopics.agentTopicConfigs)");
            }
        });
    }

    private Optional<Manifest> topic(String name) {
        return ofKind("KafkaTopic").stream().filter(t -> t.tree().path("spec").path("topicName").asText(t.name())
                .equals(name)).findFirst();
    }

    /** The bootstrap address of the Kafka resource's plain internal listener. */
    private void requireKafka(Manifest owner, String key, String servers) {
        List<String> addresses = new ArrayList<>();
        for (Manifest kafka : ofKind("Kafka")) {
            for (JsonNode l : kafka.tree().path("spec").path("kafka").path("listeners")) {
                if (l.path("type").asText().equals("internal") && !l.path("tls").asBoolean()) {
                    addresses.add(kafka.name() + "-kafka-bootstrap." + kafka.namespace() + ".svc:" + l.path("port").asInt());
                }
            }
        }
        if (!addresses.contains(servers)) {
            problems.add(owner + ": " + key + " " + servers + " is not the Kafka bootstrap address " + addresses);
        }
    }

    /** A bolt:// URI of a Service port named bolt. */
    private void requireNeo4j(Manifest owner, String key, String uri) {
        List<String> addresses = new ArrayList<>();
        for (Manifest s : ofKind("Service")) {
            for (JsonNode p : s.tree().path("spec").path("ports")) {
                if (p.path("name").asText().equals("bolt")) {
                    addresses.add("bolt://" + s.name() + "." + s.namespace() + ".svc:" + p.path("port").asInt());
                }
            }
        }
        if (!addresses.contains(uri)) {
            problems.add(owner + ": " + key + " " + uri + " is no Neo4j Service's Bolt address " + addresses);
        }
    }

    private Map<String, String> environment(PodSpecs.Pod pod, JsonNode container) {
        try {
            return Containers.environment(pod, container);
        } catch (IllegalArgumentException e) {
            problems.add(pod.owner() + ": " + e.getMessage());
            return Map.of();
        }
    }

    private List<PodSpecs.Pod> podsWithImage(String prefix) {
        return pods.stream().filter(p -> p.containers().stream().anyMatch(c -> c.path("image").asText().startsWith(prefix)))
                .toList();
    }

    private static JsonNode containerWithImage(PodSpecs.Pod pod, String prefix) {
        return pod.containers().stream().filter(c -> c.path("image").asText().startsWith(prefix)).findFirst().orElseThrow();
    }

    /** The environment variable of a key: CCTFLOW_, upper case, '.' and '-' as '_'. */
    static String environmentName(String key) {
        return "CCTFLOW_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    private List<Manifest> ofKind(String kind) {
        return manifests.stream().filter(m -> m.kind().equals(kind)).toList();
    }

    private Optional<Manifest> find(String kind, String namespace, String name) {
        return manifests.stream().filter(m -> m.kind().equals(kind) && m.namespace().equals(namespace)
                && m.name().equals(name)).findFirst();
    }
}
