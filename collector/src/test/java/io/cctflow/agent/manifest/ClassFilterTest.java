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
    void neverIncludesUnnamedOrHiddenClasses() {
        assertThat(filter.includes(null)).isFalse();
        assertThat(filter.includes("com/acme/Checkout$$Lambda/0x0000000800c03000")).isFalse();
    }

    @Test
    void withoutPrefixesIncludesEveryNamedClass() {
        assertThat(new ClassFilter(List.of()).includes("java/lang/String")).isTrue();
    }
}
