package io.cctflow.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.MethodId;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import io.cctflow.flink.cct.BatchTrees;
import io.cctflow.flink.ingest.DeadLetterSerializer;
import io.cctflow.query.QueryService;
import io.cctflow.schema.SampleBatch;
import io.cctflow.standalone.e2e.AgentRun;
import io.cctflow.standalone.e2e.PipelineRun;
import io.cctflow.standalone.e2e.SplitWorkload;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
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
    private static final String A_WORK = SplitWorkload.A.class.getName() + ".work";
    private static final String FIB = SplitWorkload.Fib.class.getName() + ".fib";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Samples the pipeline must carry at least, for the split's ±0.08 to mean something. */
    private static final long MIN_SAMPLES = 300;

    private PipelineRun pipeline;
    private QueryService api;
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
        // the workload runs its 12 s and then until Kafka holds more than MIN_SAMPLES
        AgentRun.run(pipeline.bootstrapServers(), SAMPLES, new ExecutionId(SERVICE, "1.0", "child-1"),
                "period=10ms,flush=2s", MIN_SAMPLES, Duration.ofMinutes(3), SplitWorkload.class.getName(), "12");
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

    private List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, pipeline.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "e2e-reader-" + System.nanoTime());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int emptyPolls = 0;
            while (System.nanoTime() < deadline && emptyPolls < 3) {
                var records = consumer.poll(Duration.ofSeconds(2));
                records.forEach(out::add);
                emptyPolls = records.isEmpty() && !consumer.assignment().isEmpty() ? emptyPolls + 1 : 0;
            }
        }
        return out;
    }

    /** cct-core's answer on the decodable batches in Kafka: the reference the API must match. */
    private MethodTime expected(String method) throws Exception {
        Cct tree = new Cct();
        for (ConsumerRecord<byte[], byte[]> r : readAll(SAMPLES)) {
            SampleBatch batch;
            try {
                batch = SampleBatch.fromByteBuffer(ByteBuffer.wrap(r.value()));
            } catch (Exception e) {
                continue; // the malformed record
            }
            BatchTrees.mergeComplete(batch, tree);
        }
        int dot = method.lastIndexOf('.');
        String cls = method.substring(0, dot);
        String name = method.substring(dot + 1);
        String descriptor = name.equals("fib") ? "(I)J" : "(J)V";
        long id = MethodId.of(cls, name, descriptor);
        LongPredicate isMethod = m -> m == id;
        return MethodTime.of(Scope.whole(tree), isMethod);
    }

    private JsonNode get(String pathAndQuery, int expectedStatus) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + api.port() + pathAndQuery)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("%s -> %s", pathAndQuery, response.body()).isEqualTo(expectedStatus);
        return JSON.readTree(response.body());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void methodTimeOfAWorkMatchesTheKnownSplitAndTheReference() throws Exception {
        JsonNode a = get("/api/v1/metrics/method?service=" + SERVICE + "&method=" + enc(A_WORK), 200);
        MethodTime expected = expected(A_WORK);

        assertThat(a.get("totalSamples").asLong()).as("samples through the pipeline").isGreaterThan(MIN_SAMPLES);
        assertThat(a.get("totalSamples").asLong()).isEqualTo(expected.scopeSamples());
        assertThat(a.get("methodSamples").asLong()).isEqualTo(expected.methodSamples());
        assertThat(a.get("selfSamples").asLong()).isEqualTo(expected.selfSamples());
        // the figure quoted in the closing note; surefire keeps it in the test's output file
        System.out.printf("A.work methodTime %.3f (%d of %d samples)%n", a.get("methodTime").asDouble(),
                a.get("methodSamples").asLong(), a.get("totalSamples").asLong());
        assertThat(a.get("methodTime").asDouble()).isCloseTo(0.75, org.assertj.core.data.Offset.offset(0.08));
    }

    @Test
    void recursiveMethodIsCountedOncePerSample() throws Exception {
        JsonNode fib = get("/api/v1/metrics/method?service=" + SERVICE + "&method=" + enc(FIB)
                + "&version=1.0&instance=child-1", 200);
        MethodTime expected = expected(FIB);
        assertThat(fib.get("methodSamples").asLong()).isEqualTo(expected.methodSamples()).isPositive();
        assertThat(fib.get("methodSamples").asLong()).isLessThanOrEqualTo(fib.get("totalSamples").asLong());
        assertThat(fib.get("overloads").get(0).asText()).endsWith("fib(I)J");
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
        List<ConsumerRecord<byte[], byte[]>> dead = readAll(DLQ);
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
