package io.cctflow.graph;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;
import org.neo4j.driver.SessionConfig;

/** Opens a session on the configured database (the default one when empty); shared by every stage. */
public final class Sessions {
    private Sessions() {
    }

    public static Session open(Driver driver, String database) {
        return database.isEmpty()
                ? driver.session()
                : driver.session(SessionConfig.forDatabase(database));
    }
}
