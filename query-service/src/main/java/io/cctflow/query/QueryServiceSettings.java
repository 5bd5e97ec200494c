package io.cctflow.query;

import io.cctflow.core.config.ConfigDef;
import io.cctflow.core.config.ConfigSources;
import io.cctflow.query.alerting.AlertingConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Everything a query-service process is configured with: the service's own keys
 * ({@link QueryServiceConfig}) and the {@code alerting.*} keys ({@link AlertingConfig}), from one
 * key map, so one properties file or one set of {@code CCTFLOW_*} variables configures both.
 *
 * @param service the API, the graph, limits, roll-up and retention
 * @param alerting {@code /metrics}
 */
public record QueryServiceSettings(QueryServiceConfig service, AlertingConfig alerting) {
    /** Every key a query-service process reads, in docs order. */
    public static final ConfigDef KEYS = ConfigDef.builder("query-service configuration")
            .define(QueryServiceConfig.KEYS.keys()).define(AlertingConfig.KEYS.keys()).build();

    /**
     * Parses one key map; {@code alerting.*} keys go to {@link AlertingConfig}, the others to
     * {@link QueryServiceConfig}.
     *
     * @throws IllegalArgumentException naming the unknown keys or the first bad one
     */
    public static QueryServiceSettings from(Map<String, String> values) {
        KEYS.parse(values);
        Map<String, String> own = new LinkedHashMap<>(values);
        own.keySet().removeIf(AlertingConfig.KEYS::defines);
        return new QueryServiceSettings(QueryServiceConfig.from(own), AlertingConfig.from(values));
    }

    /**
     * What a {@code main} needs: {@code --key value} arguments over {@code --config FILE} and the
     * {@code CCTFLOW_*} environment ({@link ConfigSources#fromCommandLine}).
     *
     * @param environment {@code System::getenv}
     * @throws IllegalArgumentException naming the bad key, argument or file
     */
    public static QueryServiceSettings fromCommandLine(String[] args, Function<String, String> environment) {
        return from(ConfigSources.fromCommandLine(KEYS, args, environment));
    }
}
