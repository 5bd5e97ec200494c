package io.cctflow.query.alerting;

import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.server.Handler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /metrics}: a registry of its own (so several services in one JVM do not clash) holding
 * the profile families ({@link MetricFamilies}) and the refresh loop's own health. One daemon
 * thread, {@code cctflow-alerting}, recomputes the {@link AlertingSnapshot} every {@code refresh}
 * (the first time at start); a scrape only reads the latest snapshot. A failed refresh keeps the
 * previous snapshot, is logged and counted, and the loop goes on.
 *
 * <p>Thread-safe. {@link #close()} stops the loop and is idempotent.
 */
public final class AlertingMetrics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AlertingMetrics.class);
    public static final String REFRESH_FAILURES = "cctflow_alerting_refresh_failures";
    public static final String LAST_REFRESH = "cctflow_alerting_last_refresh_timestamp_seconds";
    public static final String REFRESH_DURATION = "cctflow_alerting_refresh_duration_seconds";

    private final AlertingRefresher refresher;
    private final Clock clock;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final AtomicReference<AlertingSnapshot> latest = new AtomicReference<>(AlertingSnapshot.EMPTY);
    private final Counter failures;
    private final Gauge lastRefresh;
    private final Gauge duration;
    private final ScheduledExecutorService loop;

    private AlertingMetrics(AlertingRefresher refresher, Clock clock) {
        this.refresher = refresher;
        this.clock = clock;
        registry.register(new MetricFamilies(latest::get));
        failures = Counter.builder().name(REFRESH_FAILURES)
                .help("Refreshes of the profile metrics that failed (the previous values stay)").register(registry);
        lastRefresh = Gauge.builder().name(LAST_REFRESH).unit(Unit.SECONDS)
                .help("When the profile metrics were last computed successfully (Unix time)").register(registry);
        duration = Gauge.builder().name(REFRESH_DURATION).unit(Unit.SECONDS)
                .help("How long the last successful refresh took").register(registry);
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cctflow-alerting");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts the refresh loop; serve {@link #handler()} at {@code /metrics}.
     *
     * @return the running metrics, to close with the server
     */
    public static AlertingMetrics start(CatalogueReader catalogue, WindowReader windows, TopologyReader topology,
            AlertingConfig config, Clock clock) {
        AlertingMetrics m = new AlertingMetrics(new AlertingRefresher(catalogue, windows, topology, config, clock),
                clock);
        long every = config.refresh().toMillis();
        m.loop.scheduleWithFixedDelay(m::refresh, 0, every, TimeUnit.MILLISECONDS);
        return m;
    }

    /** The scrape handler (Prometheus text or OpenMetrics); the caller puts authentication in front. */
    public Handler handler() {
        return new ScrapeHandler(registry);
    }

    /** One refresh; never throws (the loop would stop). */
    void refresh() {
        long start = clock.millis();
        try {
            latest.set(refresher.compute());
            long end = clock.millis();
            duration.set((end - start) / 1000.0);
            lastRefresh.set(end / 1000.0);
        } catch (RuntimeException e) {
            failures.inc();
            LOG.warn("refreshing the profile metrics failed; /metrics keeps the previous values", e);
        }
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}
