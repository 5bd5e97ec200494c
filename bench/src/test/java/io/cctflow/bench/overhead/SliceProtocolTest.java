package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SliceProtocolTest {

    @Test
    void readyAndResultLinesRoundTrip() {
        assertThat(SliceProtocol.parseReady(SliceProtocol.ready(1234))).isEqualTo(1234);
        assertThat(SliceProtocol.parseResult(SliceProtocol.result(15_000_000, 250_000_000, -42)))
                .isEqualTo(new SliceProtocol.Result(15_000_000, 250_000_000, -42));
        assertThat(SliceProtocol.parseReady("READY awaitMillis=0\\r".replace("\\r", "\r"))).isZero();
    }

    @Test
    void otherLinesAreRejectedWithTheLineAndWhatWasExpected() {
        assertThatThrownBy(() -> SliceProtocol.parseReady("Exception in thread main"))
                .hasMessageContaining("READY awaitMillis=<n>").hasMessageContaining("'Exception in thread main'");
        assertThatThrownBy(() -> SliceProtocol.parseReady(null)).hasMessageContaining("'null'");
        assertThatThrownBy(() -> SliceProtocol.parseResult("RESULT heapAfterGc=1 rss=x checksum=3"))
                .hasMessageContaining("RESULT heapAfterGc=<bytes>").hasMessageContaining("rss=x");
        assertThatThrownBy(() -> SliceProtocol.parseResult(SliceProtocol.ready(1)))
                .hasMessageContaining("READY awaitMillis=1");
    }
}
