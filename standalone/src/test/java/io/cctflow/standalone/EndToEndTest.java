package io.cctflow.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cctflow.core.ExecutionId;
import io.cctflow.flink.ingest.DeadLetterSerializer;
import io.cctflow.query.QueryService;
import io.cctflow.schema.SampleBatch;
import io.cctflow.standalone.e2e.PipelineRun;
import io.cctflow.standalone.e2e.SplitAnswers;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * One sample's whole journey: a child JVM with the shipped agent jar runs a workload whose split
 * is known, the agent publishes to a real broker, a malformed record is added, the samples job runs
 * on a Flink MiniCluster into a real Neo4j, and the HTTP API answers. Its numbers must equal
 * cct-core's on the very batches found in Kafka (nothing lost, the malformed record changed
 * nothing) and the known split within ±0.08.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class EndToEndTest {
    private static final String SAMPLES = "e2e.samples";
    private static final String DLQ = PipelineRun.deadLetterTopic(SAMPLES);
    private static final String SERVICE = "e2e-split";
    private static final String A_WORK = SplitAnswers.A_WORK;
    private static final ObjectMapper JSON = new ObjectMapper();

    private PipelineRun pipeline;
    private QueryService api;
    private SplitAnswers split;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void runPipeline() throws Exception {
        pipeline = PipelineRun.prepare(SAMPLES);
        runAgentWorkload();
        sendMalformedRecord();
        api = pipeline.processAndServe(Map.of());
    }

    @AfterAll
    void stopApi() {
        if (api != null) {
            api.close();
        }
    }

    private void runAgentWorkload() throws Exception {
        split = new SplitAnswers(pipeline.bootstrapServers(), SAMPLES, new ExecutionId(SERVICE, "1.0", "child-1"));
        split.runWorkload();
    }

    private void sendMalformedRecord() throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", pipeline.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            byte[] key = new ExecutionId(SERVICE, "1.0", "child-1").key().getBytes(StandardCharsets.UTF_8);
            producer.send(new ProducerRecord<>(SAMPLES, key, "definitely not avro".getBytes(StandardCharsets.UTF_8))).get();
        }
    }

    private URI api() {
        return URI.create("http://127.0.0.1:" + api.port());
    }

    private JsonNode get(String pathAndQuery, int expectedStatus) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(api().resolve(pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("%s -> %s", pathAndQuery, response.body()).isEqualTo(expectedStatus);
        return JSON.readTree(response.body());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void methodTimeOfAWorkMatchesTheKnownSplitAndTheReference() throws Exception {
        split.checkAWork(api());
    }

    @Test
    void recursiveMethodIsCountedOncePerSample() throws Exception {
        split.checkRecursion(api());
    }

    @Test
    void threadsListTheRawNamesTheAgentSawBehindThePoolName() throws Exception {
        JsonNode a = get("/api/v1/metrics/method?service=" + SERVICE + "&method=" + enc(A_WORK), 200);
        JsonNode pool = null;
        for (JsonNode t : a.at("/metrics/0/threads")) {
            if (t.get("name").asText().equals("worker-#")) {
                pool = t;
            }
        }
        assertThat(pool).as("the workers' pool in %s", a.at("/metrics/0/threads")).isNotNull();
        List<String> raw = new ArrayList<>();
        pool.get("rawNames").forEach(n -> raw.add(n.asText()));
        // SplitWorkload names its two threads worker-0 and worker-1
        assertThat(raw).containsExactly("worker-0", "worker-1");
    }

    @Test
    void malformedRecordIsDeadLetteredWithItsReason() {
        List<ConsumerRecord<byte[], byte[]>> dead = SplitAnswers.readAll(pipeline.bootstrapServers(), DLQ);
        assertThat(dead).hasSize(1);
        assertThat(new String(dead.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("definitely not avro");
        assertThat(new String(dead.get(0).headers().lastHeader(DeadLetterSerializer.REASON_HEADER).value(),
                StandardCharsets.UTF_8)).contains("not an Avro single-object SampleBatch");
    }

    @Test
    void servicesListTheWorkloadInstance() throws Exception {
        JsonNode services = get("/api/v1/services", 200).get("services");
        JsonNode service = null;
        for (JsonNode s : services) {
            if (s.get("name").asText().equals(SERVICE)) {
                service = s;
            }
        }
        assertThat(service).as("service %s in %s", SERVICE, services).isNotNull();
        assertThat(service.get("versions").get(0).get("version").asText()).isEqualTo("1.0");
        assertThat(service.get("versions").get(0).get("instances").get(0).get("instanceId").asText())
                .isEqualTo("child-1");
    }

    @Test
    void badRequestsGetMessagesThatSayWhatToFix() throws Exception {
        assertThat(get("/api/v1/metrics/method?service=nope&method=" + enc(A_WORK), 404).get("error").asText())
                .contains("unknown service 'nope'");
        assertThat(get("/api/v1/metrics/method?service=" + SERVICE + "&method=no.Such.method", 404)
                .get("error").asText()).contains("unknown method");
        assertThat(get("/api/v1/metrics/method?service=" + SERVICE + "&method=" + enc(A_WORK) + "&from=yesterday", 400)
                .get("error").asText()).contains("'from'").contains("ISO-8601");
        assertThat(get("/api/v1/metrics/method?service=" + SERVICE, 400).get("error").asText())
                .contains("missing required parameter 'method'");
        assertThat(get("/api/v1/metrics/method?service=" + SERVICE + "&method=nodot", 400).get("error").asText())
                .contains("fully.qualified.Class.method");
        assertThat(get("/api/v1/metrics/method?service=" + SERVICE + "&method=" + enc(A_WORK) + "&instance=ghost", 404)
                .get("error").asText()).contains("no instance 'ghost'");
    }
}
