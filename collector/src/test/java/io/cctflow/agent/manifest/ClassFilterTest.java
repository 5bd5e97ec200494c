package io.cctflow.agent.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class ClassFilterTest {
    private final ClassFilter filter = new ClassFilter(List.of("java.", "com.sun.", "io.cctflow.agent."));

    @Test
    void excludesByBinaryNamePrefixOnInternalNames() {
        assertThat(filter.includes("java/lang/String")).isFalse();
        assertThat(filter.includes("com/sun/net/httpserver/HttpServer")).isFalse();
        assertThat(filter.includes("io/cctflow/agent/shaded/org/objectweb/asm/ClassReader")).isFalse();
        assertThat(filter.includes("javax/net/SocketFactory")).as("java. is not javax.").isTrue();
        assertThat(filter.includes("com/acme/Checkout")).isTrue();
        assertThat(filter.includes("io/cctflow/workload/Main")).isTrue();
    }

    @Test
    void neverIncludesUnnamedHiddenOrRunTimeNamedClasses() {
        assertThat(filter.includes(null)).isFalse();
        assertThat(filter.includes("com/acme/Checkout$$Lambda/0x0000000800c03000")).isFalse();
        assertThat(filter.includes("com/acme/Checkout$$Lambda$14/0x0000000800c03000")).isFalse();
        assertThat(filter.includes("jdk/internal/reflect/GeneratedMethodAccessor12")).isFalse();
        assertThat(filter.includes("jdk/proxy2/$Proxy17")).isFalse();
        assertThat(filter.includes("com/acme/Checkout$$EnhancerBySpringCGLIB$$1a2b3c4d")).isFalse();
        assertThat(filter.includes("com/acme/Checkout$1")).as("an anonymous class is named by javac").isTrue();
    }

    @Test
    void withoutPrefixesIncludesEveryNamedClass() {
        assertThat(new ClassFilter(List.of()).includes("java/lang/String")).isTrue();
    }
}
