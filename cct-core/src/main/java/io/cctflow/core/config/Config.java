package io.cctflow.core.config;

import java.util.Map;

/** Parsed, valid values of one {@link ConfigDef}, by key. Immutable and thread-safe. */
public final class Config {
    private final Map<String, Object> values;

    Config(Map<String, Object> values) {
        this.values = Map.copyOf(values);
    }

    /**
     * The value of a key of the definition this came from.
     *
     * @throws IllegalArgumentException for a key that definition does not hold
     */
    @SuppressWarnings("unchecked") // the value was produced by this very key's parser
    public <T> T get(ConfigKey<T> key) {
        Object value = values.get(key.name());
        if (value == null) {
            throw new IllegalArgumentException("key " + key.name() + " is not part of this configuration");
        }
        return (T) value;
    }
}
