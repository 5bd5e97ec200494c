package io.cctflow.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.MethodId;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.model.CodeClassRecord;
import io.cctflow.model.MethodRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Session;

class CodeFingerprintsTest extends CleanGraph {
    private static CodeClassRecord cart(String version, long totalFingerprint) {
        return new CodeClassRecord("shop", version, "com.acme.Cart", new String[] {"<init>", "total"},
                new String[] {"()V", "(I)J"}, new long[] {11L, totalFingerprint});
    }

    @Test
    void readsFingerprintsBackKeyedByTheMethodRecordSignature() {
        writer.writeCode(List.of(cart("v1", 12L), new CodeClassRecord("shop", "v1", "com.acme.Line",
                new String[] {"price"}, new String[] {"()J"}, new long[] {-5L})));

        Map<String, Long> fingerprints = catalogue.methodFingerprints("shop", "v1");

        assertThat(fingerprints).isEqualTo(Map.of(
                MethodRecord.of("com.acme.Cart", "<init>", "()V").signature(), 11L,
                MethodRecord.of("com.acme.Cart", "total", "(I)J").signature(), 12L,
                MethodRecord.of("com.acme.Line", "price", "()J").signature(), -5L));
        assertThat(catalogue.methodFingerprints("shop", "v2")).isEmpty();
        assertThat(catalogue.methodFingerprints("other", "v1")).isEmpty();
    }

    @Test
    void writingTheSameClassAgainIsIdempotentAndDeploymentsStayApart() {
        writer.writeCode(List.of(cart("v1", 12L)));
        writer.writeCode(List.of(cart("v1", 12L), cart("v2", 13L)));
        writer.writeCode(List.of(cart("v1", 12L)));

        try (Session session = driver.session()) {
            assertThat(session.run("MATCH (c:CodeClass) RETURN count(c) AS n").single().get("n").asLong()).isEqualTo(2);
            assertThat(session.run("MATCH (:Service {name: 'shop'})-[:HAS_DEPLOYMENT]->(d:Deployment)-[h:HAS_CODE]->() "
                    + "RETURN count(DISTINCT d) AS d, count(h) AS h").single().asMap())
                    .isEqualTo(Map.of("d", 2L, "h", 2L));
        }
        ChangeList changes = ChangeList.between(catalogue.methodFingerprints("shop", "v1"),
                catalogue.methodFingerprints("shop", "v2"), MethodId::ofSignature);
        assertThat(changes.modified()).containsExactly(MethodId.of("com.acme.Cart", "total", "(I)J"));
        assertThat(changes.added()).isEmpty();
        assertThat(changes.deleted()).isEmpty();
    }
}
