package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ClassNamesTest {

    /** Names recorded by JFR in two runs of JRuby 9.4.8.0 and 9.4.9.0 (bench/reports/parcs, first harness run). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "java.lang.invoke.LambdaForm$MH+0x00007f1ff06f8000.232042179 | java.lang.invoke.LambdaForm$MH",
        "java.lang.invoke.LambdaForm$MH+0x00007fb8e4704000.232042179 | java.lang.invoke.LambdaForm$MH",
        "java.lang.invoke.LambdaForm$DMH+0x00007f1ff07b5c00.1633375360 | java.lang.invoke.LambdaForm$DMH",
        "org.jruby.runtime.load.LoadService$$Lambda$1484+0x00007f1ff0742d08.1667737224 | org.jruby.runtime.load.LoadService$$Lambda$#",
        "org.jruby.runtime.load.LoadService$$Lambda$1488+0x00007fb8e4750c80.1667737224 | org.jruby.runtime.load.LoadService$$Lambda$#",
        "org.jruby.Ruby$$Lambda$569+0x00007f1ff05b71a8.1619369818 | org.jruby.Ruby$$Lambda$#",
        "org.jruby.Ruby$$Lambda$569+0x00007fb8e45c6f88.1619369818 | org.jruby.Ruby$$Lambda$#",
    })
    void normalisesTheGeneratedNamesJfrReportedForJruby(String recorded, String normalised) {
        assertThat(ClassNames.normalise(recorded)).isEqualTo(normalised);
        assertThat(ClassNames.isGenerated(recorded)).isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // Class.getName() of a JDK 17 lambda, the same with JDK 21 (no counter), async-profiler's dotted form
        "com.acme.Foo$$Lambda$14/0x0000000800c0b440 | com.acme.Foo$$Lambda$#",
        "com.acme.Foo$$Lambda/0x000001f0010a1234 | com.acme.Foo$$Lambda",
        "com.acme.Foo$$Lambda$14.0x0000000800c0b440 | com.acme.Foo$$Lambda$#",
        "com/acme/Foo$$Lambda$14+0x0000000800c0b440/99 | com/acme/Foo$$Lambda$#",
        "jdk.internal.reflect.GeneratedMethodAccessor12 | jdk.internal.reflect.GeneratedMethodAccessor#",
        "sun.reflect.GeneratedConstructorAccessor3 | sun.reflect.GeneratedConstructorAccessor#",
        "jdk.internal.reflect.GeneratedSerializationConstructorAccessor7 | jdk.internal.reflect.GeneratedSerializationConstructorAccessor#",
        "jdk.proxy2.$Proxy17 | jdk.proxy#.$Proxy#",
        "jdk/proxy1/$Proxy3 | jdk/proxy#/$Proxy#",
        "com.sun.proxy.$Proxy5 | com.sun.proxy.$Proxy#",
        "com.acme.Service$$EnhancerBySpringCGLIB$$1a2b3c4d | com.acme.Service$$EnhancerBySpringCGLIB$$#",
        "com.acme.Service$$EnhancerBySpringCGLIB$$1a2b3c4d$$FastClassBySpringCGLIB$$9e8f | com.acme.Service$$EnhancerBySpringCGLIB$$#$$FastClassBySpringCGLIB$$#",
        "com.acme.Service$$SpringCGLIB$$0 | com.acme.Service$$SpringCGLIB$$#",
        "com.acme.Service$ByteBuddy$AbCdEfGh | com.acme.Service$ByteBuddy$#",
        "com.acme.Service$ByteBuddy$AbCdEfGh$auxiliary$Zy12XwVu | com.acme.Service$ByteBuddy$#$auxiliary$#",
        "com.acme.Order$HibernateProxy$Xyz12AbC | com.acme.Order$HibernateProxy$#",
        "com.acme.Repo$MockitoMock$1234567 | com.acme.Repo$MockitoMock$#",
    })
    void normalisesOtherGeneratedNames(String recorded, String normalised) {
        assertThat(ClassNames.normalise(recorded)).isEqualTo(normalised);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "java.util.HashMap", "java.lang.invoke.LambdaForm$MH", "com.acme.Foo$1", "com.acme.Foo$Inner2",
        "org.python.pycode._pyx0", "org.jruby.gen.org$jruby$RubyString$INVOKER$i$0$0$op_plus",
        "com.acme.Hex0xff", "com.acme.v0x1.Thing", "com.acme.Proxy12", "com.acme.$Proxy", "a.b.$ByteBuddy$",
        "", "x",
    })
    void leavesOrdinaryNamesAsTheSameInstance(String literal) {
        String name = new String(literal);
        assertThat(ClassNames.normalise(name)).isSameAs(name);
        assertThat(ClassNames.isGenerated(name)).isFalse();
    }

    /** The rules written as regular expressions, applied in the same order: the brute-force reference. */
    private static String reference(String name) {
        String s = name.replaceFirst("^(.*?)(?:[+/.]0x[0-9a-fA-F]+(?:[./][0-9]+)?)+$", "$1");
        s = s.replaceFirst("\\$\\$Lambda\\$[0-9]+$", Matcher.quoteReplacement("$$Lambda$#"));
        s = s.replaceFirst("(^|[./])(Generated(?:Method|Constructor|SerializationConstructor)Accessor)[0-9]+$",
                "$1$2#");
        s = s.replaceFirst("(^|[./])\\$Proxy[0-9]+$", "$1" + Matcher.quoteReplacement("$Proxy#"));
        s = s.replaceFirst("^(jdk[./]proxy)[0-9]+(?=[./])", "$1#");
        for (String marker : List.of("$$EnhancerBySpringCGLIB$$", "$$EnhancerByCGLIB$$", "$$FastClassBySpringCGLIB$$",
                "$$FastClassByCGLIB$$", "$$KeyFactoryByCGLIB$$", "$$SpringCGLIB$$", "$ByteBuddy$", "$auxiliary$",
                "$HibernateProxy$", "$MockitoMock$")) {
            s = s.replaceAll(Pattern.quote(marker) + "[A-Za-z0-9]+", Matcher.quoteReplacement(marker + "#"));
        }
        return s;
    }

    @Provide
    Arbitrary<String> nameLike() {
        // pieces of real generated and ordinary names, so the rules' edges meet often
        return Arbitraries.of("com", "acme", "Foo", ".", "/", "$", "$$", "$$Lambda$", "Lambda", "+", "0x", "0", "7",
                "12", "ab", "F", "x", "#", "_", "$Proxy", "jdk.proxy", "jdk/proxy", "GeneratedMethodAccessor",
                "GeneratedConstructorAccessor", "$$EnhancerBySpringCGLIB$$", "$$SpringCGLIB$$", "$ByteBuddy$",
                "$auxiliary$", "$MockitoMock$", "$HibernateProxy$", "LambdaForm$MH", "0x00007f1ff06f8000",
                ".232042179", "/0x0000000800c0b440")
                .list().ofMaxSize(10).map(pieces -> String.join("", pieces));
    }

    @Property(tries = 5000)
    void agreesWithTheRegexReference(@ForAll("nameLike") String name) {
        String normalised = ClassNames.normalise(name);
        assertThat(normalised).as(name).isEqualTo(reference(name));
        if (normalised.equals(name)) {
            assertThat(normalised).as(name).isSameAs(name);
        }
    }

    @Property(tries = 5000)
    void isIdempotent(@ForAll("nameLike") String name) {
        String once = ClassNames.normalise(name);
        assertThat(ClassNames.normalise(once)).as(name).isSameAs(once);
    }

    @Property(tries = 1000)
    void givesOneNameToAClassWhateverItsAddressHashAndCounter(
            @ForAll @LongRange(min = 1) long address, @ForAll @IntRange(min = 0) int hash,
            @ForAll @IntRange(min = 0, max = 1_000_000) int counter, @ForAll("spelling") int spelling) {
        String hex = Long.toHexString(address);
        String recorded = switch (spelling) {
            case 0 -> "org.acme.Job$$Lambda$" + counter + "+0x" + hex + "." + hash; // JFR
            case 1 -> "org.acme.Job$$Lambda$" + counter + "/0x" + hex;            // Class.getName()
            default -> "org.acme.Job$$Lambda$" + counter + ".0x" + hex;           // dotted collapsed stacks
        };
        assertThat(ClassNames.normalise(recorded)).isEqualTo("org.acme.Job$$Lambda$#");
        assertThat(ClassNames.normalise("java.lang.invoke.LambdaForm$BMH+0x" + hex + "." + hash))
                .isEqualTo("java.lang.invoke.LambdaForm$BMH");
    }

    @Provide
    Arbitrary<Integer> spelling() {
        return Arbitraries.integers().between(0, 2);
    }
}
