package io.cctflow.query.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueryParamsTest {

    @Test
    void decodesRepeatedAndPercentEncodedValues() {
        QueryParams p = new QueryParams("service=a%20b&instance=i-1&instance=i-2&from=2026-11-21T10%3A00%3A00Z");
        assertThat(p.required("service")).isEqualTo("a b");
        assertThat(p.all("instance")).containsExactly("i-1", "i-2");
        assertThat(p.instant("from")).contains(Instant.parse("2026-11-21T10:00:00Z"));
        assertThat(p.optional("version")).isEmpty();
    }

    @Test
    void eachMistakeIsA400ThatNamesTheParameter() {
        assertBadRequest(() -> new QueryParams("").required("service"), "missing required parameter 'service'");
        assertBadRequest(() -> new QueryParams("to=noon").instant("to"), "parameter 'to' must be an ISO-8601 instant");
        assertBadRequest(() -> new QueryParams("version=1&version=2").optional("version"), "'version' given 2 times");
        assertBadRequest(() -> new QueryParams("service=").optional("service"), "parameter 'service' is empty");
        assertBadRequest(() -> new QueryParams("servce=x").allowOnly(Set.of("service")), "unknown parameter 'servce'");
        assertBadRequest(() -> new QueryParams("a=%zz"), "malformed percent-encoding");
        assertBadRequest(() -> new QueryParams("to=%2B1000000000-01-01T00:00:00Z").instant("to"),
                "parameter 'to' must lie between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z");
        assertBadRequest(() -> new QueryParams("from=-1000000000-01-01T00:00:00Z").instant("from"),
                "parameter 'from' must lie between");
        assertThat(new QueryParams("from=9999-12-31T23:59:59.999Z").instant("from")).isPresent();
    }

    private static void assertBadRequest(Runnable call, String message) {
        assertThatThrownBy(call::run)
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessageContaining(message);
    }
}
