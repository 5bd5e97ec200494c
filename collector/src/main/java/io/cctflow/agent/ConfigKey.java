package io.cctflow.agent;

import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One configuration key of the agent: its name, how to parse and validate a raw value, and its
 * default. Immutable and thread-safe.
 *
 * @param <T> the type of the parsed value
 */
final class ConfigKey<T> {
    private final String name;
    private final Function<String, T> parser;
    private final Supplier<T> defaultValue;
    private final String defaultText;
    private final String doc;

    /**
     * @param parser turns a trimmed raw value into a valid value, or throws
     *     {@link IllegalArgumentException} whose message says what was wrong
     * @param defaultValue the default; a supplier because some defaults (the instance id) need
     *     the host name, which is only looked up when nothing overrides it
     * @param defaultText the default as shown to users
     */
    ConfigKey(String name, Function<String, T> parser, Supplier<T> defaultValue, String defaultText,
            String doc) {
        this.name = name;
        this.parser = parser;
        this.defaultValue = defaultValue;
        this.defaultText = defaultText;
        this.doc = doc;
    }

    String name() {
        return name;
    }

    T parse(String raw) {
        return parser.apply(raw.trim());
    }

    T defaultValue() {
        return defaultValue.get();
    }

    String defaultText() {
        return defaultText;
    }

    String doc() {
        return doc;
    }

    /** The system property that sets this key: {@code cctflow.<key>}. */
    String systemProperty() {
        return "cctflow." + name;
    }

    /** The environment variable that sets this key: {@code CCTFLOW_<KEY>}, dots and dashes as {@code _}. */
    String environmentVariable() {
        return "CCTFLOW_" + name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }
}
