package io.cctflow.core.config;

import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Turns the raw text of a configuration value into a typed, valid value. Implementations are
 * stateless and thread-safe.
 *
 * <p>A bad value is reported by throwing {@link IllegalArgumentException} whose message says what
 * is accepted. Phrase it either as a rule about the key ({@code must be > 0, got '-1'}), which
 * {@link ConfigException} joins to the key name with a space, or as a finding
 * ({@code not a duration: 'soon' (...)}), joined with a colon; either way the message names the
 * bad value.
 *
 * @param <T> the type of the parsed value
 */
@FunctionalInterface
public interface ValueParser<T> {
    /**
     * @param raw the value, never null, already trimmed when it comes from a {@link ConfigKey}
     * @throws IllegalArgumentException when the value is not accepted
     */
    T parse(String raw);

    /**
     * This parser followed by a check of the parsed value.
     *
     * @param valid true for an accepted value
     * @param rule what is accepted, e.g. {@code must be > 0}; the message adds {@code , got '<raw>'}
     */
    default ValueParser<T> check(Predicate<? super T> valid, String rule) {
        return raw -> {
            T value = parse(raw);
            if (!valid.test(value)) {
                throw new IllegalArgumentException(rule + ", got '" + raw + "'");
            }
            return value;
        };
    }

    /** This parser followed by a conversion that may itself reject the value. */
    default <R> ValueParser<R> map(Function<? super T, ? extends R> conversion) {
        return raw -> conversion.apply(parse(raw));
    }
}
