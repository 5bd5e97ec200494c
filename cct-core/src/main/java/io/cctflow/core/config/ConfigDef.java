package io.cctflow.core.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The keys of one configuration (the samples job's, the query service's, ...), in the order the
 * docs list them: parses string key/values into a {@link Config}, failing at the first bad value
 * or at any unknown key with a {@link ConfigException} naming it (Kafka's {@code ConfigDef}).
 * Immutable and thread-safe.
 */
public final class ConfigDef {
    private final String what;
    private final String prefix;
    private final Map<String, ConfigKey<?>> keys;

    private ConfigDef(String what, String prefix, Map<String, ConfigKey<?>> keys) {
        this.what = what;
        this.prefix = prefix;
        this.keys = Collections.unmodifiableMap(keys);
    }

    /**
     * Starts a configuration that owns every key of its input: any key not defined here is unknown.
     *
     * @param what names it in errors, e.g. {@code job configuration}
     */
    public static Builder builder(String what) {
        return new Builder(what, "");
    }

    /**
     * Starts a configuration that owns only the keys starting with {@code prefix}: others are left
     * for other parts of the application, so one map can configure the whole service.
     */
    public static Builder builder(String what, String prefix) {
        return new Builder(what, prefix);
    }

    /** Collects keys in docs order. Not thread-safe; used once. */
    public static final class Builder {
        private final String what;
        private final String prefix;
        private final Map<String, ConfigKey<?>> keys = new LinkedHashMap<>();

        private Builder(String what, String prefix) {
            this.what = what;
            this.prefix = prefix;
        }

        /** @throws IllegalArgumentException for a name defined twice or outside the prefix */
        public Builder define(ConfigKey<?>... more) {
            return define(List.of(more));
        }

        /** @throws IllegalArgumentException for a name defined twice or outside the prefix */
        public Builder define(List<? extends ConfigKey<?>> more) {
            for (ConfigKey<?> key : more) {
                if (!key.name().startsWith(prefix)) {
                    throw new IllegalArgumentException("key " + key.name() + " lies outside prefix " + prefix);
                }
                if (keys.put(key.name(), key) != null) {
                    throw new IllegalArgumentException("key " + key.name() + " defined twice");
                }
            }
            return this;
        }

        public ConfigDef build() {
            return new ConfigDef(what, prefix, new LinkedHashMap<>(keys));
        }
    }

    /** The keys in docs order. */
    public List<ConfigKey<?>> keys() {
        return List.copyOf(keys.values());
    }

    /** Whether this configuration defines a key of that name. */
    public boolean defines(String name) {
        return keys.containsKey(name);
    }

    /**
     * Parses the values of this configuration's keys; missing keys take their defaults.
     *
     * @throws ConfigException naming the unknown keys, or the first key whose value is bad
     */
    public Config parse(Map<String, String> values) {
        Set<String> unknown = new TreeSet<>();
        for (String name : values.keySet()) {
            if (name.startsWith(prefix) && !keys.containsKey(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw ConfigException.unknownKeys(what, unknown, keys.keySet());
        }
        Map<String, Object> parsed = new LinkedHashMap<>();
        for (ConfigKey<?> key : keys.values()) {
            String raw = values.get(key.name());
            parsed.put(key.name(), raw == null ? key.defaultValue() : key.parse(raw));
        }
        return new Config(parsed);
    }

    /** The keys as a Markdown table, {@code | key | default | meaning |}; see {@link KeyTable}. */
    public String markdownTable() {
        return KeyTable.markdown(keys(), List.of(KeyTable.Column.KEY, KeyTable.Column.DEFAULT,
                KeyTable.Column.MEANING));
    }

    /** The environment variable names of this configuration's keys, by key name. */
    public Map<String, String> environmentVariables() {
        Map<String, String> names = new LinkedHashMap<>();
        keys.values().forEach(k -> names.put(k.name(), k.environmentVariable()));
        return names;
    }

    @Override
    public String toString() {
        return what + " " + new ArrayList<>(keys.keySet());
    }
}
