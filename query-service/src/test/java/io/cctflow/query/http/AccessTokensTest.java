package io.cctflow.query.http;

import static io.cctflow.query.http.AccessTokens.Decision.ALLOWED;
import static io.cctflow.query.http.AccessTokens.Decision.READ_ONLY_TOKEN;
import static io.cctflow.query.http.AccessTokens.Decision.UNAUTHENTICATED;
import static io.cctflow.query.http.AccessTokens.Decision.WRITES_DISABLED;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AccessTokensTest {
    private static final String READ = "Bearer r";
    private static final String WRITE = "Bearer w";

    @Test
    void bothTokensSetReadsTakeEitherWritesOnlyTheWriteToken() {
        AccessTokens t = new AccessTokens("r", "w");
        assertThat(t.decide("GET", null)).isEqualTo(UNAUTHENTICATED);
        assertThat(t.decide("GET", "Bearer x")).isEqualTo(UNAUTHENTICATED);
        assertThat(t.decide("GET", "r")).isEqualTo(UNAUTHENTICATED); // the scheme is part of the header
        assertThat(t.decide("GET", READ)).isEqualTo(ALLOWED);
        assertThat(t.decide("HEAD", " " + READ + " ")).isEqualTo(ALLOWED);
        assertThat(t.decide("GET", WRITE)).isEqualTo(ALLOWED);
        assertThat(t.decide("POST", READ)).isEqualTo(READ_ONLY_TOKEN);
        assertThat(t.decide("DELETE", null)).isEqualTo(UNAUTHENTICATED);
        assertThat(t.decide("PUT", WRITE)).isEqualTo(ALLOWED);
    }

    @Test
    void aReadTokenAloneDisablesWrites() {
        AccessTokens t = new AccessTokens("r", "");
        assertThat(t.readsProtected()).isTrue();
        assertThat(t.decide("GET", READ)).isEqualTo(ALLOWED);
        assertThat(t.decide("POST", READ)).isEqualTo(WRITES_DISABLED);
        assertThat(t.decide("POST", null)).isEqualTo(WRITES_DISABLED);
    }

    @Test
    void aWriteTokenAloneProtectsOnlyWrites() {
        AccessTokens t = new AccessTokens("", "w");
        assertThat(t.open()).isFalse();
        assertThat(t.decide("GET", null)).isEqualTo(ALLOWED);
        assertThat(t.decide("POST", null)).isEqualTo(UNAUTHENTICATED);
        assertThat(t.decide("POST", WRITE)).isEqualTo(ALLOWED);
    }

    @Test
    void noTokensLetEverythingThrough() {
        AccessTokens t = new AccessTokens("", "");
        assertThat(t.open()).isTrue();
        assertThat(t.decide("GET", null)).isEqualTo(ALLOWED);
        assertThat(t.decide("DELETE", "Bearer anything")).isEqualTo(ALLOWED);
    }
}
