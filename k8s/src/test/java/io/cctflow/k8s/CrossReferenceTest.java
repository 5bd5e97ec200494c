package io.cctflow.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The manifests refer to each other consistently, and a copy with one dangling or inconsistent
 * reference is caught with a message that says which.
 */
class CrossReferenceTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @Test
    void everyReferenceResolves() {
        List<Manifest> all = Manifests.all();
        assertThat(ResourceReferences.check(all)).isEmpty();
        assertThat(ApplicationConfig.check(all)).isEmpty();
    }

    static Stream<Arguments> brokenReferences() {
        return Stream.of(
                broken("query service reads a Secret key that does not exist", "query-service/query-service.yaml", 0,
                        "/spec/template/spec/containers/0/env/7/valueFrom/secretKeyRef/key", JSON.textNode("tokn"),
                        "has no key tokn"),
                broken("Neo4j reads a Secret that does not exist", "neo4j/neo4j.yaml", 0,
                        "/spec/template/spec/containers/0/env/0/valueFrom/secretKeyRef/name", JSON.textNode("cctflow-neo4jj"),
                        "Secret cctflow-neo4jj does not exist"),
                broken("the job's --config file is not mounted", "flink/samples-job.yaml", 0,
                        "/spec/podTemplate/spec/volumes/0/secret/items/0/path", JSON.textNode("job.conf"),
                        "--config /opt/cctflow/secrets/job.properties is no file mounted"),
                brokenArg("the job reads a topic that is no KafkaTopic", "--topic.samples", JSON.textNode("cctflow.sample"),
                        "topic.samples cctflow.sample is no KafkaTopic"),
                brokenArgKey("the job gets a key it does not know", "--topic.samples", "--topic.sample",
                        "unknown job configuration key(s) [topic.sample]"),
                brokenArg("the job's parallelism differs from the FlinkDeployment's", "--parallelism", JSON.textNode("5"),
                        "differs from spec.job.parallelism"),
                broken("the job's parallelism does not divide the partitions", "flink/samples-job.yaml", 0,
                        "/spec/job/parallelism", JSON.numberNode(5), "does not divide"),
                brokenArg("the job's Kafka address is not the cluster's", "--kafka.bootstrap.servers",
                        JSON.textNode("cctflow-kafka-bootstrap:9092"), "is not the Kafka bootstrap address"),
                broken("checkpoints on a pod's local disk", "flink/samples-job.yaml", 0,
                        "/spec/flinkConfiguration/execution.checkpointing.dir", JSON.textNode("file:///tmp/checkpoints"),
                        "is not on durable storage"),
                broken("upgrades without a savepoint", "flink/samples-job.yaml", 0, "/spec/job/upgradeMode",
                        JSON.textNode("stateless"), "upgradeMode must be savepoint"),
                broken("the task definitions topic is not compacted", "kafka/topics.yaml", 2,
                        "/spec/config/cleanup.policy", JSON.textNode("delete"), "must compact"),
                broken("the samples topic is compacted", "kafka/topics.yaml", 0, "/spec/config/cleanup.policy",
                        JSON.textNode("compact"), "must not compact"),
                broken("the samples topic refuses a batch over the broker's default 1 MiB", "kafka/topics.yaml", 0,
                        "/spec/config/max.message.bytes", JSON.numberNode(1048588), "max.message.bytes 1048588 must be"),
                broken("the manifests topic takes less than an agent sends", "kafka/topics.yaml", 1,
                        "/spec/config/max.message.bytes", JSON.textNode("1000000"), "max.message.bytes 1000000 must be"),
                broken("an environment variable the query service does not know", "query-service/query-service.yaml", 0,
                        "/spec/template/spec/containers/0/env/0/name", JSON.textNode("CCTFLOW_BINDING"),
                        "CCTFLOW_BINDING is no query-service or alerting key"),
                broken("the query service listens on loopback only", "query-service/query-service.yaml", 0,
                        "/spec/template/spec/containers/0/env/0/value", JSON.textNode("127.0.0.1"),
                        "is unreachable from other pods"),
                broken("a bad value for a query-service key", "query-service/query-service.yaml", 0,
                        "/spec/template/spec/containers/0/env/8/value", JSON.textNode("five minutes"),
                        "rollup.interval"),
                broken("the readiness probe names a port the container lacks", "query-service/query-service.yaml", 0,
                        "/spec/template/spec/containers/0/readinessProbe/httpGet/port", JSON.textNode("htp"),
                        "readinessProbe port htp is not a port of the container"),
                broken("the readiness probe does not check /readyz", "query-service/query-service.yaml", 0,
                        "/spec/template/spec/containers/0/readinessProbe/httpGet/path", JSON.textNode("/healthz"),
                        "readinessProbe must GET /readyz"),
                broken("the Service selects no pod", "query-service/query-service.yaml", 1,
                        "/spec/selector/app.kubernetes.io~1name", JSON.textNode("query-service"), "selector matches no pod"),
                broken("the HPA scales a Deployment that does not exist", "query-service/query-service.yaml", 2,
                        "/spec/scaleTargetRef/name", JSON.textNode("cctflow-query"), "scaleTargetRef Deployment"),
                broken("the ServiceMonitor scrapes a port the Service lacks", "query-service/monitoring.yaml", 0,
                        "/spec/endpoints/0/port", JSON.textNode("metrics"), "endpoint port metrics is not a named port"),
                broken("the ServiceMonitor's token Secret does not exist", "query-service/monitoring.yaml", 0,
                        "/spec/endpoints/0/authorization/credentials/name", JSON.textNode("cctflow-token"),
                        "Secret cctflow-token does not exist"),
                broken("the Neo4j Service has no Bolt port", "neo4j/neo4j.yaml", 1, "/spec/ports/0/name",
                        JSON.textNode("bolts"), "is no Neo4j Service's Bolt address"),
                broken("a volume mount names no volume", "neo4j/neo4j.yaml", 0,
                        "/spec/template/spec/containers/0/volumeMounts/1/name", JSON.textNode("log"),
                        "volumeMount log names no volume"),
                broken("the init container copies the agent elsewhere", "agent/example-app.yaml", 0,
                        "/spec/template/spec/initContainers/0/command/2", JSON.textNode("/cctflow-agent/agent.jar"),
                        "no init container copies the agent jar"),
                broken("the agent's version comes from a label the pod lacks", "agent/example-app.yaml", 0,
                        "/spec/template/spec/containers/0/env/5/valueFrom/fieldRef/fieldPath",
                        JSON.textNode("metadata.labels['version']"), "the pod has no label version"),
                broken("the agent runs with JFR's default stack depth", "agent/example-app.yaml", 0,
                        "/spec/template/spec/containers/0/env/0/value",
                        JSON.textNode("-javaagent:/cctflow-agent/cctflow-collector.jar"), "stackdepth"),
                broken("the agent publishes to a topic the job does not read", "agent/example-app.yaml", 0,
                        "/spec/template/spec/containers/0/env/2/value", JSON.textNode("samples"),
                        "agent topic samples is not the job's cctflow.samples"),
                broken("an environment variable the agent does not know", "agent/example-app.yaml", 0,
                        "/spec/template/spec/containers/0/env/3/name", JSON.textNode("CCTFLOW_MANIFESTS_TOPIC"),
                        "CCTFLOW_MANIFESTS_TOPIC is no agent key"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenReferences")
    void brokenReferenceIsReported(String breakage, List<Manifest> manifests, String expected) {
        List<String> problems = new ArrayList<>(ResourceReferences.check(manifests));
        problems.addAll(ApplicationConfig.check(manifests));
        assertThat(problems).as(breakage).anyMatch(p -> p.contains(expected));
    }

    private static Arguments broken(String breakage, String file, int index, String pointer, JsonNode value,
            String expected) {
        List<Manifest> all = new ArrayList<>();
        boolean replaced = false;
        for (Manifest m : Manifests.all()) {
            if (m.file().toString().equals(file) && m.index() == index) {
                Manifest copy = m.copy();
                copy.replace(pointer, value);
                all.add(copy);
                replaced = true;
            } else {
                all.add(m);
            }
        }
        if (!replaced) {
            throw new IllegalStateException("no document " + file + "#" + index);
        }
        return Arguments.of(breakage, all, expected);
    }

    /** The value after a job argument replaced. */
    private static Arguments brokenArg(String breakage, String argument, JsonNode value, String expected) {
        return broken(breakage, "flink/samples-job.yaml", 0, "/spec/job/args/" + (argIndex(argument) + 1), value, expected);
    }

    /** A job argument's name replaced. */
    private static Arguments brokenArgKey(String breakage, String argument, String replacement, String expected) {
        return broken(breakage, "flink/samples-job.yaml", 0, "/spec/job/args/" + argIndex(argument),
                JSON.textNode(replacement), expected);
    }

    private static int argIndex(String argument) {
        JsonNode args = Manifests.read(java.nio.file.Path.of("flink/samples-job.yaml")).get(0).tree().at("/spec/job/args");
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).asText().equals(argument)) {
                return i;
            }
        }
        throw new IllegalStateException("no job argument " + argument);
    }
}
