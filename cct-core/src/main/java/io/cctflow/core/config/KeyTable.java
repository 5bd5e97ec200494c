package io.cctflow.core.config;

import java.util.List;

/**
 * Renders keys as the Markdown tables of the module READMEs. A test in each module compares the
 * README's table with this rendering, so the docs cannot drift from the code. Stateless.
 */
public final class KeyTable {
    /** A column of the table. */
    public enum Column {
        KEY("key"), DEFAULT("default"), SYSTEM_PROPERTY("system property"), ENVIRONMENT("environment"),
        MEANING("meaning");

        private final String title;

        Column(String title) {
            this.title = title;
        }

        String cell(ConfigKey<?> key) {
            return switch (this) {
                case KEY -> code(key.name());
                case DEFAULT -> key.defaultText().isEmpty() ? "(empty)" : code(key.defaultText());
                case SYSTEM_PROPERTY -> code(key.systemProperty());
                case ENVIRONMENT -> code(key.environmentVariable());
                case MEANING -> key.doc();
            };
        }
    }

    private KeyTable() {
    }

    /** One header row, one separator row, one row per key; every row ends with a newline. */
    public static String markdown(List<ConfigKey<?>> keys, List<Column> columns) {
        StringBuilder sb = new StringBuilder("|");
        columns.forEach(c -> sb.append(' ').append(c.title).append(" |"));
        sb.append("\n|");
        columns.forEach(c -> sb.append("---|"));
        sb.append('\n');
        for (ConfigKey<?> key : keys) {
            sb.append('|');
            columns.forEach(c -> sb.append(' ').append(c.cell(key)).append(" |"));
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String code(String text) {
        return "`" + text + "`";
    }
}
