package io.cctflow.graph;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;
import org.neo4j.driver.SessionConfig;

final class Sessions {
    private Sessions() {
    }

    static Session open(Driver driver, String database) {
        return database.isEmpty()
                ? driver.session()
                : driver.session(SessionConfig.forDatabase(database));
    }
}
