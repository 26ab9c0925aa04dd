package io.moraine.core.store;

import io.moraine.core.error.InvalidArgumentException;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * How a {@link OpenMode#READ_ONLY} handle keeps up with the store's writer (docs/freshness.md).
 *
 * <ul>
 *     <li>{@link Mode#ON_DEMAND} (the default): nothing runs in the background, so an idle reader makes no object-store
 *     request. Each read that begins a query, scan plan or statement first checks the store (its newest manifest and
 *     write-ahead-log object) unless it checked less than {@code maxStaleness} ago, and moves to a new SlateDB reader
 *     when anything changed. With {@code maxStaleness} 0 a read sees every commit acknowledged before it began.</li>
 *     <li>{@link Mode#POLL}: SlateDB's reader polls the store every {@link StoreOptions#manifestPollInterval()} (about
 *     ten requests a tick, idle or not) and a read sees a commit at most one interval after it was acknowledged.</li>
 * </ul>
 *
 * @param maxStaleness for {@link Mode#ON_DEMAND}: how old the last check may be for a read to skip checking again
 */
public record ReaderFreshness(Mode mode, Duration maxStaleness)
        implements java.io.Serializable
{
    public enum Mode
    {
        ON_DEMAND,
        POLL
    }

    /** Always fresh: every read that begins something checks the store. */
    public static final ReaderFreshness DEFAULT = onDemand(Duration.ZERO);

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)?");

    public ReaderFreshness
    {
        requireNonNull(mode, "mode is null");
        requireNonNull(maxStaleness, "maxStaleness is null");
        if (maxStaleness.isNegative()) {
            throw new InvalidArgumentException("the maximum staleness must be 0 or positive, not " + maxStaleness);
        }
    }

    public static ReaderFreshness onDemand(Duration maxStaleness)
    {
        return new ReaderFreshness(Mode.ON_DEMAND, maxStaleness);
    }

    /** Background polling at {@link StoreOptions#manifestPollInterval()}, as SlateDB's reader does it. */
    public static ReaderFreshness polling()
    {
        return new ReaderFreshness(Mode.POLL, Duration.ZERO);
    }

    public boolean onDemand()
    {
        return mode == Mode.ON_DEMAND;
    }

    /**
     * The freshness a front end's two settings name: {@code mode} ({@code on-demand} or {@code poll}, any case, {@code _}
     * or {@code -}) and {@code maxStaleness} (a duration: {@code 0}, {@code 500ms}, {@code 5s}, {@code 2m}; whole
     * seconds without a unit). {@code modeSetting} and {@code stalenessSetting} name the settings in errors as the user wrote them.
     */
    public static ReaderFreshness parse(String mode, String maxStaleness, String modeSetting, String stalenessSetting)
    {
        Duration staleness = parseStaleness(maxStaleness, stalenessSetting);
        String normalized = mode.strip().toUpperCase(Locale.ROOT).replace('-', '_');
        return switch (normalized) {
            case "ON_DEMAND" -> onDemand(staleness);
            case "POLL" -> {
                if (!staleness.isZero()) {
                    throw new InvalidArgumentException(stalenessSetting + " is " + maxStaleness + ", but " + modeSetting + " is poll: a polling reader is as "
                            + "stale as its poll interval. Set " + modeSetting + " to on-demand to bound staleness, or drop " + stalenessSetting);
                }
                yield polling();
            }
            default -> throw new InvalidArgumentException(modeSetting + " must be on-demand (check the store when a read begins; the default) or poll "
                    + "(SlateDB's background polling), not '" + mode + "'");
        };
    }

    /** A staleness bound in text: {@code 0}, or a duration such as {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}. */
    public static Duration parseStaleness(String text, String setting)
    {
        Matcher matcher = DURATION.matcher(text.strip());
        if (!matcher.matches()) {
            throw new InvalidArgumentException(setting + " takes 0 (always fresh) or a duration such as '500ms', '5s' or '2m', not '" + text + "'");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2) == null ? "s" : matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }

    @Override
    public String toString()
    {
        return onDemand() ? "on-demand (max staleness " + maxStaleness.toMillis() + "ms)" : "poll";
    }
}
