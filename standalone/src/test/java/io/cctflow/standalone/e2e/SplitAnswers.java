package io.cctflow.standalone.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.MethodId;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import io.cctflow.flink.cct.BatchTrees;
import io.cctflow.schema.SampleBatch;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.assertj.core.data.Offset;

/**
 * What the pipeline must answer for one {@link SplitWorkload} run, wherever it runs (standalone's
 * MiniCluster or the cluster of separate processes): the API's method figures equal cct-core's on
 * the very batches of that run found in Kafka (nothing lost, nothing doubled), and {@code A.work}'s
 * method time is the known 3/4 within ±0.08.
 */
public final class SplitAnswers {
    public static final String A_WORK = SplitWorkload.A.class.getName() + ".work";
    public static final String FIB = SplitWorkload.Fib.class.getName() + ".fib";
    /** Samples the pipeline must carry at least, for the split's ±0.08 to mean something. */
    public static final long MIN_SAMPLES = 300;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String bootstrapServers;
    private final String topic;
    private final ExecutionId execution;
    private final HttpClient http = HttpClient.newHttpClient();
    private Cct reference;

    public SplitAnswers(String bootstrapServers, String topic, ExecutionId execution) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.execution = execution;
    }

    /** Runs the workload with the shipped agent until Kafka holds more than {@link #MIN_SAMPLES} of it (12 s at least). */
    public void runWorkload() throws Exception {
        AgentRun.run(bootstrapServers, topic, execution, "period=10ms,flush=2s", MIN_SAMPLES, Duration.ofMinutes(3),
                SplitWorkload.class.getName(), "12");
    }

    /** Every record of {@code topic}, from the beginning, until three polls in a row bring nothing. */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrapServers, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
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

    /** cct-core's tree of this run's decodable batches in Kafka: the reference the API must match. */
    private Cct reference() {
        if (reference == null) {
            byte[] key = execution.key().getBytes(StandardCharsets.UTF_8);
            Cct tree = new Cct();
            for (ConsumerRecord<byte[], byte[]> r : readAll(bootstrapServers, topic)) {
                if (!Arrays.equals(r.key(), key)) {
                    continue; // another execution's batches share the topic
                }
                SampleBatch batch;
                try {
                    batch = SampleBatch.fromByteBuffer(ByteBuffer.wrap(r.value()));
                } catch (Exception e) {
                    continue; // a malformed record, which the job dead-letters
                }
                BatchTrees.mergeComplete(batch, tree);
            }
            reference = tree;
        }
        return reference;
    }

    private MethodTime expected(String method, String descriptor) {
        int dot = method.lastIndexOf('.');
        long id = MethodId.of(method.substring(0, dot), method.substring(dot + 1), descriptor);
        return MethodTime.of(Scope.whole(reference()), m -> m == id);
    }

    /** {@code A.work}'s samples through the API at {@code api} equal the reference's, and its share is 3/4 ± 0.08. */
    public void checkAWork(URI api) throws Exception {
        JsonNode a = get(api, "/api/v1/metrics/method?service=" + enc(execution.service()) + "&method=" + enc(A_WORK));
        MethodTime expected = expected(A_WORK, "(J)V");
        assertThat(a.get("totalSamples").asLong()).as("samples through the pipeline").isGreaterThan(MIN_SAMPLES);
        assertThat(a.get("totalSamples").asLong()).isEqualTo(expected.scopeSamples());
        assertThat(a.get("methodSamples").asLong()).isEqualTo(expected.methodSamples());
        assertThat(a.get("selfSamples").asLong()).isEqualTo(expected.selfSamples());
        // the figure quoted in closing notes; surefire and failsafe keep it in the test's output file
        System.out.printf("%s: A.work methodTime %.3f (%d of %d samples)%n", api, a.get("methodTime").asDouble(),
                a.get("methodSamples").asLong(), a.get("totalSamples").asLong());
        assertThat(a.get("methodTime").asDouble()).isCloseTo(0.75, Offset.offset(0.08));
    }

    /** The recursive {@code fib} counts once per sample, as cct-core counts it, for the run's instance. */
    public void checkRecursion(URI api) throws Exception {
        JsonNode fib = get(api, "/api/v1/metrics/method?service=" + enc(execution.service()) + "&method=" + enc(FIB)
                + "&version=" + enc(execution.version()) + "&instance=" + enc(execution.instance()));
        assertThat(fib.get("methodSamples").asLong()).isEqualTo(expected(FIB, "(I)J").methodSamples()).isPositive();
        assertThat(fib.get("methodSamples").asLong()).isLessThanOrEqualTo(fib.get("totalSamples").asLong());
        assertThat(fib.get("overloads").get(0).asText()).endsWith("fib(I)J");
    }

    private JsonNode get(URI api, String pathAndQuery) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(api.resolve(pathAndQuery))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("%s -> %s", pathAndQuery, response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
