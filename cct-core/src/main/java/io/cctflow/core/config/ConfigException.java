package io.cctflow.core.config;

/**
 * A configuration value or key that cannot be used. The message names the key and the bad value,
 * so a service that fails at start-up with it tells the operator what to change.
 */
public final class ConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final String problem;

    private ConfigException(String key, String message, String problem, Throwable cause) {
        super(message, cause);
        this.key = key;
        this.problem = problem;
    }

    /**
     * The key with a parser's complaint: a rule ({@code must ...}) reads as a sentence about the
     * key, anything else follows the key after a colon.
     */
    static ConfigException badValue(String key, IllegalArgumentException problem) {
        String text = problem.getMessage() == null ? "bad value" : problem.getMessage();
        String message = text.startsWith("must ") ? key + " " + text : key + ": " + text;
        return new ConfigException(key, message, text, problem);
    }

    /** Keys no definition knows; {@code what} names the configuration, e.g. {@code job configuration}. */
    static ConfigException unknownKeys(String what, Iterable<String> unknown, Iterable<String> known) {
        String text = "unknown " + what + " key(s) " + unknown + "; known keys: " + known;
        return new ConfigException(String.join(",", unknown), text, text, null);
    }

    /** What was wrong with the value, without the key: the parser's own message. */
    public String problem() {
        return problem;
    }

    /** The key that was wrong (several, comma-separated, for unknown keys). */
    public String key() {
        return key;
    }
}
