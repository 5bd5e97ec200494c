package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MethodNamesTest {

    /** Names JFR recorded in two runs of JRuby 9.4.8.0 running bench's workload.rb. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "invokeOther41:+ | invokeOther#:+",
        "invokeOtherOneFixnum17:+ | invokeOtherOneFixnum#:+",
        "invokeOther2:fib | invokeOther#:fib",
        "invokeOther4:fib | invokeOther#:fib",
        "invokeOther8:\\=\\^\\^ | invokeOther#:\\=\\^\\^",
        "invokeOther28:zero? | invokeOther#:zero?",
        "invokeOtherOneFixnum0:\\=\\^ | invokeOtherOneFixnum#:\\=\\^",
    })
    void normalisesJrubyCallSiteMethods(String recorded, String normalised) {
        assertThat(MethodNames.normalise(recorded)).isEqualTo(normalised);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "invoke", "invokeExact_MT", "invokeStatic", "invoke0", "invokeOther", "invokeOther:x", "invokeOther12",
        "RUBY$method$fib$0", "RUBY$block$walk$12", "lambda$static$676", "op_plus19", "<init>", "", "x:1",
    })
    void leavesOtherNamesAsTheSameInstance(String literal) {
        String name = new String(literal);
        assertThat(MethodNames.normalise(name)).isSameAs(name);
    }

    private static String reference(String name) {
        return name.replaceFirst("^(invoke[A-Za-z]*)[0-9]+:", "$1#:");
    }

    @Provide
    Arbitrary<String> nameLike() {
        return Arbitraries.of("invoke", "Other", "One", "Fixnum", "0", "17", "4", ":", "+", "fib", "#", "$", "x")
                .list().ofMaxSize(8).map(pieces -> String.join("", pieces));
    }

    @Property(tries = 3000)
    void agreesWithTheRegexReferenceAndIsIdempotent(@ForAll("nameLike") String name) {
        String once = MethodNames.normalise(name);
        assertThat(once).as(name).isEqualTo(reference(name));
        assertThat(MethodNames.normalise(once)).as(name).isSameAs(once);
    }
}
