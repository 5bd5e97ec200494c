package io.cctflow.graph;

import io.cctflow.core.config.Config;
import io.cctflow.core.config.ConfigKey;
import io.cctflow.core.config.ValueParsers;
import java.util.List;

/**
 * The {@code neo4j.*} keys that say where the graph lives, defined once for every process that
 * opens it (the samples job, the query service). Stateless.
 */
public final class GraphStoreKeys {
    public static final ConfigKey<String> URI = ConfigKey.of("neo4j.uri", ValueParsers.nonEmpty(),
            "bolt://localhost:7687", "Neo4j Bolt URI");
    public static final ConfigKey<String> USER = ConfigKey.of("neo4j.user", ValueParsers.text(), "",
            "Neo4j user; empty for no authentication");
    public static final ConfigKey<String> PASSWORD = ConfigKey.of("neo4j.password", ValueParsers.text(), "",
            "Neo4j password");
    public static final ConfigKey<String> DATABASE = ConfigKey.of("neo4j.database", ValueParsers.text(), "",
            "Neo4j database; empty for the default");

    /** The keys in docs order, to include in a {@link io.cctflow.core.config.ConfigDef}. */
    public static final List<ConfigKey<?>> ALL = List.of(URI, USER, PASSWORD, DATABASE);

    private GraphStoreKeys() {
    }

    /** The graph a parsed configuration names. */
    public static GraphStoreConfig graphOf(Config config) {
        return new GraphStoreConfig(config.get(URI), config.get(USER), config.get(PASSWORD), config.get(DATABASE));
    }
}
