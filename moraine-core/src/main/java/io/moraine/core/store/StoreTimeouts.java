package io.moraine.core.store;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The text form every front end takes a store timeout in: {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h}, or whole seconds. */
public final class StoreTimeouts
{
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)?");

    private StoreTimeouts() {}

    /**
     * Parses {@code text}, given as the setting {@code setting} (named in the error as the user wrote it), refusing
     * anything but a positive duration with an {@link IllegalArgumentException} that says what is expected.
     */
    public static Duration parse(String setting, String text)
    {
        Matcher matcher = DURATION.matcher(text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException(setting + " takes a duration such as '30s', '500ms' or '2m', not '" + text + "'");
        }
        long amount = Long.parseLong(matcher.group(1));
        Duration duration = switch (matcher.group(2) == null ? "s" : matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
        if (duration.isZero()) {
            throw new IllegalArgumentException(setting + " must be positive, not '" + text + "'");
        }
        return duration;
    }
}
