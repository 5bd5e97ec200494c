package io.cctflow.query.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class MetricFamiliesTest {

    /** Family name -> (labels as text -> value), for comparisons. */
    private static Map<String, Map<String, Double>> values(MetricSnapshots snapshots) {
        Map<String, Map<String, Double>> out = new TreeMap<>();
        for (MetricSnapshot m : snapshots) {
            Map<String, Double> points = new TreeMap<>();
            for (DataPointSnapshot p : m.getDataPoints()) {
                points.put(p.getLabels().toString(), ((GaugeSnapshot.GaugeDataPointSnapshot) p).getValue());
            }
            out.put(m.getMetadata().getPrometheusName(), points);
        }
        return out;
    }

    private static AlertingSnapshot snapshot(String version) {
        return new AlertingSnapshot(
                List.of(new AlertingSnapshot.WatchedTime("checkout", version, "com.example.Cart.total", 30, 120)),
                List.of(new AlertingSnapshot.DeploymentSamples("checkout", version, 120),
                        new AlertingSnapshot.DeploymentSamples("checkout", "v1", 200)),
                List.of(new AlertingSnapshot.Shift("checkout", version, "v1", "com.example.Db.query()V",
                        new MethodShift(1, 60, 20, 0.4, 0.3, 0.5))),
                List.of(new AlertingSnapshot.TaskSamples("checkout", version, "payment", 80)),
                List.of(new AlertingSnapshot.TaskTime("checkout", version, "payment", "com.example.Cart.total", 20, 80)));
    }

    @Test
    void exportsEachSeriesOfTheSnapshotWithItsLabelsAndValue() {
        MetricFamilies families = new MetricFamilies(() -> snapshot("v2"));

        Map<String, Map<String, Double>> v = values(families.collect());

        assertThat(v.keySet()).containsExactlyInAnyOrderElementsOf(MetricFamilies.NAMES);
        assertThat(v.get("cctflow_method_time_ratio")).containsExactly(
                Map.entry("{method=\"com.example.Cart.total\",service=\"checkout\",version=\"v2\"}", 0.25));
        assertThat(v.get("cctflow_method_samples")).containsExactly(
                Map.entry("{method=\"com.example.Cart.total\",service=\"checkout\",version=\"v2\"}", 30.0));
        assertThat(v.get("cctflow_deployment_samples")).containsExactly(
                Map.entry("{service=\"checkout\",version=\"v1\"}", 200.0),
                Map.entry("{service=\"checkout\",version=\"v2\"}", 120.0));
        String shift = "baseline_version=\"v1\",method=\"com.example.Db.query()V\",service=\"checkout\",";
        assertThat(v.get("cctflow_method_time_shift_ratio")).containsExactly(
                Map.entry("{" + shift + "version=\"v2\"}", 0.4));
        assertThat(v.get("cctflow_method_time_shift_samples")).containsExactly(
                Map.entry("{" + shift + "side=\"baseline\",version=\"v2\"}", 20.0),
                Map.entry("{" + shift + "side=\"current\",version=\"v2\"}", 60.0));
        String bound = "{baseline_version=\"v1\",bound=\"%s\",method=\"com.example.Db.query()V\",service=\"checkout\","
                + "version=\"v2\"}";
        assertThat(v.get("cctflow_method_time_shift_interval_ratio")).containsExactly(
                Map.entry(bound.formatted("high"), 0.5), Map.entry(bound.formatted("low"), 0.3));
        assertThat(v.get("cctflow_task_samples")).containsExactly(
                Map.entry("{service=\"checkout\",task=\"payment\",version=\"v2\"}", 80.0));
        String task = "{method=\"com.example.Cart.total\",service=\"checkout\",task=\"payment\",version=\"v2\"}";
        assertThat(v.get("cctflow_task_method_time_ratio")).containsExactly(Map.entry(task, 0.25));
        assertThat(v.get("cctflow_task_method_samples")).containsExactly(Map.entry(task, 20.0));
    }

    @Test
    void aNewSnapshotReplacesEverySeriesSoStaleOnesDisappear() {
        AtomicReference<AlertingSnapshot> latest = new AtomicReference<>(snapshot("v2"));
        MetricFamilies families = new MetricFamilies(latest::get);
        assertThat(values(families.collect()).get("cctflow_method_time_shift_ratio").keySet())
                .allMatch(l -> l.contains("version=\"v2\""));

        latest.set(snapshot("v3"));
        Map<String, Map<String, Double>> v = values(families.collect());
        for (String family : List.of("cctflow_method_time_ratio", "cctflow_method_time_shift_ratio",
                "cctflow_method_time_shift_samples", "cctflow_task_samples", "cctflow_task_method_time_ratio")) {
            assertThat(v.get(family).keySet()).as(family).isNotEmpty()
                    .allMatch(l -> l.contains("version=\"v3\"")).noneMatch(l -> l.contains("version=\"v2\""));
        }

        latest.set(AlertingSnapshot.EMPTY);
        assertThat(values(families.collect()).values()).allMatch(Map::isEmpty);
    }

    @Test
    void ratiosCarryTheirUnit() {
        Map<String, String> units = families(new MetricFamilies(() -> AlertingSnapshot.EMPTY).collect());
        assertThat(units).containsEntry("cctflow_method_time_ratio", "ratio")
                .containsEntry("cctflow_method_time_shift_ratio", "ratio")
                .containsEntry("cctflow_method_time_shift_interval_ratio", "ratio")
                .containsEntry("cctflow_task_method_time_ratio", "ratio");
    }

    private static Map<String, String> families(MetricSnapshots s) {
        return s.stream().filter(m -> m.getMetadata().getUnit() != null).collect(Collectors.toMap(
                m -> m.getMetadata().getPrometheusName(), m -> m.getMetadata().getUnit().toString()));
    }

    @Test
    void readmeDocumentsEveryMetricAndKey() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        for (String name : MetricFamilies.NAMES) {
            assertThat(readme).as("README mentions metric " + name).contains("`" + name + "`");
        }
        for (String name : List.of(AlertingMetrics.REFRESH_FAILURES + "_total", AlertingMetrics.LAST_REFRESH,
                AlertingMetrics.REFRESH_DURATION)) {
            assertThat(readme).as("README mentions metric " + name).contains("`" + name + "`");
        }
        String table = AlertingConfig.KEYS.markdownTable();
        for (var key : AlertingConfig.KEYS.keys()) {
            String def = key.defaultText().isEmpty() ? "(empty)" : "`" + key.defaultText() + "`";
            assertThat(table).as("table lists key " + key.name() + " with its default")
                    .contains("| `" + key.name() + "` | " + def + " |");
        }
        assertThat(readme).as("README holds the key table; paste AlertingConfig.KEYS.markdownTable()").contains(table);
    }
}
