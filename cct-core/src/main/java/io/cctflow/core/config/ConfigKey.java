package io.cctflow.core.config;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One configuration key: its name, how its raw text is parsed and validated, its default and its
 * documentation, defined once as a constant and used to read the value, to report a bad one and
 * to render the docs (Kafka's {@code ConfigDef.ConfigKey}). Immutable and thread-safe.
 *
 * @param <T> the type of the value
 */
public final class ConfigKey<T> {
    private final String name;
    private final ValueParser<T> parser;
    private final Supplier<T> defaultValue;
    private final String defaultText;
    private final String doc;

    private ConfigKey(String name, ValueParser<T> parser, Supplier<T> defaultValue, String defaultText, String doc) {
        this.name = Objects.requireNonNull(name, "name");
        this.parser = Objects.requireNonNull(parser, "parser");
        this.defaultValue = Objects.requireNonNull(defaultValue, "defaultValue");
        this.defaultText = Objects.requireNonNull(defaultText, "defaultText");
        this.doc = Objects.requireNonNull(doc, "doc");
    }

    /**
     * A key whose default is written as a value would be: {@code defaultText} is parsed now, so
     * a default that its own parser rejects fails when the key is defined, not when it is used.
     */
    public static <T> ConfigKey<T> of(String name, ValueParser<T> parser, String defaultText, String doc) {
        T value = new ConfigKey<>(name, parser, () -> null, defaultText, doc).parse(defaultText);
        return new ConfigKey<>(name, parser, () -> value, defaultText, doc);
    }

    /**
     * A key whose default is computed (e.g. from the host name) or is no value at all
     * ({@code Optional.empty()}); {@code defaultText} is what the docs show.
     *
     * @param defaultValue called each time the default is needed, never when a value is given
     */
    public static <T> ConfigKey<T> computed(String name, ValueParser<T> parser, Supplier<T> defaultValue,
            String defaultText, String doc) {
        return new ConfigKey<>(name, parser, defaultValue, defaultText, doc);
    }

    public String name() {
        return name;
    }

    /** The default as the docs show it; empty when the default is the empty string. */
    public String defaultText() {
        return defaultText;
    }

    public String doc() {
        return doc;
    }

    /** The default value (computed anew for a {@link #computed} key). */
    public T defaultValue() {
        return defaultValue.get();
    }

    /**
     * Parses and validates a raw value (trimmed first).
     *
     * @throws ConfigException naming this key and the value
     */
    public T parse(String raw) {
        try {
            return Objects.requireNonNull(parser.parse(raw.trim()), "parser returned null");
        } catch (IllegalArgumentException | ArithmeticException e) {
            IllegalArgumentException problem = e instanceof IllegalArgumentException iae ? iae
                    : new IllegalArgumentException("out of range, got '" + raw + "'", e);
            throw ConfigException.badValue(name, problem);
        }
    }

    /** The environment variable that sets this key: {@code CCTFLOW_} + the name upper-cased, {@code .} and {@code -} as {@code _}. */
    public String environmentVariable() {
        return "CCTFLOW_" + name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The system property that sets this key (the agent reads these): {@code cctflow.<key>}. */
    public String systemProperty() {
        return "cctflow." + name;
    }

    @Override
    public String toString() {
        return name;
    }
}
