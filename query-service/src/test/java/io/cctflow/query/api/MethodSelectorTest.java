package io.cctflow.query.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.query.http.ApiException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MethodSelectorTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
        "com.example.Cart.total|com.example.Cart|total|null",
        "com.example.Cart.total(I)J|com.example.Cart|total|(I)J",
        "com.example.Cart$Line.<init>()V|com.example.Cart$Line|<init>|()V",
        "A.lambda$main$0(Ljava/lang/String;)V|A|lambda$main$0|(Ljava/lang/String;)V"})
    void parsesClassMethodAndOptionalDescriptor(String text, String cls, String method, String descriptor) {
        assertThat(MethodSelector.parse(text)).isEqualTo(new MethodSelector(cls, method, descriptor));
        assertThat(MethodSelector.parse(text).toString()).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"nodot", ".method", "com.example.Cart.", "com.example.Cart.total(", "A.b()"})
    void rejectsWhatIsNotAMethodWithAMessageThatShowsTheForm(String text) {
        assertThatThrownBy(() -> MethodSelector.parse(text))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessageContaining("fully.qualified.Class.method")
                .hasMessageContaining("'" + text + "'");
    }
}
