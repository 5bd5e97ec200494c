package io.cctflow.query.alerting;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.function.Supplier;

/**
 * The profile metrics of {@code /metrics}: turns the latest {@link AlertingSnapshot} into gauge
 * families on each scrape, without any Neo4j query. Names, help texts and units are documented
 * in the README. Thread-safe if the supplier is.
 */
public final class MetricFamilies implements MultiCollector {
    public static final String METHOD_TIME = "cctflow_method_time_ratio";
    public static final String METHOD_SAMPLES = "cctflow_method_samples";
    public static final String DEPLOYMENT_SAMPLES = "cctflow_deployment_samples";
    public static final String SHIFT = "cctflow_method_time_shift_ratio";
    public static final String SHIFT_SAMPLES = "cctflow_method_time_shift_samples";
    public static final String SHIFT_INTERVAL = "cctflow_method_time_shift_interval_ratio";
    public static final String TASK_SAMPLES = "cctflow_task_samples";
    public static final String TASK_METHOD_TIME = "cctflow_task_method_time_ratio";
    public static final String TASK_METHOD_SAMPLES = "cctflow_task_method_samples";

    /** Every family this collector exports, for the README check. */
    public static final List<String> NAMES = List.of(METHOD_TIME, METHOD_SAMPLES, DEPLOYMENT_SAMPLES, SHIFT,
            SHIFT_SAMPLES, SHIFT_INTERVAL, TASK_SAMPLES, TASK_METHOD_TIME, TASK_METHOD_SAMPLES);

    private final Supplier<AlertingSnapshot> latest;

    public MetricFamilies(Supplier<AlertingSnapshot> latest) {
        this.latest = latest;
    }

    @Override
    public MetricSnapshots collect() {
        AlertingSnapshot s = latest.get();
        GaugeSnapshot.Builder time = GaugeSnapshot.builder().name(METHOD_TIME).unit(Unit.RATIO)
                .help("Method time of a watched method in the newest deployment of its service: samples with the "
                        + "method on the stack (recursion-aware) / all samples, over the trailing window");
        GaugeSnapshot.Builder methodSamples = GaugeSnapshot.builder().name(METHOD_SAMPLES)
                .help("Samples with a watched method on the stack (numerator of cctflow_method_time_ratio)");
        for (AlertingSnapshot.WatchedTime w : s.watched()) {
            Labels labels = Labels.of("service", w.service(), "version", w.version(), "method", w.method());
            time.dataPoint(point(labels, w.ratio()));
            methodSamples.dataPoint(point(labels, w.methodSamples()));
        }
        GaugeSnapshot.Builder deployments = GaugeSnapshot.builder().name(DEPLOYMENT_SAMPLES)
                .help("All samples of a deployment in the window its metrics are computed over (the denominator); "
                        + "the newest deployment of each service and its predecessor");
        for (AlertingSnapshot.DeploymentSamples d : s.deployments()) {
            deployments.dataPoint(point(Labels.of("service", d.service(), "version", d.version()), d.samples()));
        }
        GaugeSnapshot.Builder shift = GaugeSnapshot.builder().name(SHIFT).unit(Unit.RATIO)
                .help("Normalised method time in the newest deployment minus normalised method time in its "
                        + "predecessor (the compare endpoint's methodTime.delta), for the top-K methods by absolute shift "
                        + "per service among the significant shifts (false discovery rate 5 %); positive: the method "
                        + "takes a larger share");
        GaugeSnapshot.Builder shiftSamples = GaugeSnapshot.builder().name(SHIFT_SAMPLES)
                .help("Method samples behind cctflow_method_time_shift_ratio, side=current or baseline");
        GaugeSnapshot.Builder shiftInterval = GaugeSnapshot.builder().name(SHIFT_INTERVAL).unit(Unit.RATIO)
                .help("95 % confidence interval of cctflow_method_time_shift_ratio (the compare endpoint's "
                        + "methodTime.low and high), bound=low or high");
        for (AlertingSnapshot.Shift x : s.shifts()) {
            Labels labels = Labels.of("service", x.service(), "version", x.version(),
                    "baseline_version", x.baselineVersion(), "method", x.method());
            shift.dataPoint(point(labels, x.shift().shift()));
            shiftSamples.dataPoint(point(labels.add("side", "current"), x.shift().currentSamples()));
            shiftSamples.dataPoint(point(labels.add("side", "baseline"), x.shift().baselineSamples()));
            shiftInterval.dataPoint(point(labels.add("bound", "low"), x.shift().low()));
            shiftInterval.dataPoint(point(labels.add("bound", "high"), x.shift().high()));
        }
        GaugeSnapshot.Builder taskSamples = GaugeSnapshot.builder().name(TASK_SAMPLES)
                .help("Samples through the roots of a watched task (the highest nodes labelled with it) in the "
                        + "newest deployment of its service, over the trailing window");
        for (AlertingSnapshot.TaskSamples t : s.tasks()) {
            taskSamples.dataPoint(point(Labels.of("service", t.service(), "version", t.version(), "task", t.task()),
                    t.samples()));
        }
        GaugeSnapshot.Builder taskTime = GaugeSnapshot.builder().name(TASK_METHOD_TIME).unit(Unit.RATIO)
                .help("Method time of a watched method relative to a watched task: samples with the method on the "
                        + "stack below the task's roots (recursion-aware) / samples through the task's roots");
        GaugeSnapshot.Builder taskMethodSamples = GaugeSnapshot.builder().name(TASK_METHOD_SAMPLES)
                .help("Samples with a watched method on the stack below a watched task's roots (numerator of "
                        + "cctflow_task_method_time_ratio)");
        for (AlertingSnapshot.TaskTime t : s.taskTimes()) {
            Labels labels = Labels.of("service", t.service(), "version", t.version(), "task", t.task(),
                    "method", t.method());
            taskTime.dataPoint(point(labels, t.ratio()));
            taskMethodSamples.dataPoint(point(labels, t.methodSamples()));
        }
        return MetricSnapshots.of(time.build(), methodSamples.build(), deployments.build(), shift.build(),
                shiftSamples.build(), shiftInterval.build(), taskSamples.build(), taskTime.build(), taskMethodSamples.build());
    }

    private static GaugeDataPointSnapshot point(Labels labels, double value) {
        return GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
    }
}
