package io.moraine.spark;

import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.unsafe.types.UTF8String;

import java.time.ZoneId;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Delta's change-feed reader options on {@code format("moraine")}: {@code readChangeFeed}, {@code startingVersion} or
 * {@code startingTimestamp}, and optionally {@code endingVersion} or {@code endingTimestamp} (both inclusive). Spark
 * hands a {@code SupportsCatalogOptions} source's options to the catalog only through the identifier, so the request
 * travels as the identifier's name ({@link #identifierName()}, parsed back by {@link #parse(String)}) under the
 * namespace {@code [schema, table]}.
 */
record ChangeFeedRequest(Bound start, Optional<Bound> end)
{
    static final String READ_CHANGE_FEED = "readChangeFeed";
    static final String STARTING_VERSION = "startingVersion";
    static final String STARTING_TIMESTAMP = "startingTimestamp";
    static final String ENDING_VERSION = "endingVersion";
    static final String ENDING_TIMESTAMP = "endingTimestamp";

    private static final String PREFIX = "$changes ";
    private static final Pattern NAME = Pattern.compile("\\$changes (version|timestamp) (-?\\d+)(?: to (version|timestamp) (-?\\d+))?");

    /** A snapshot id, or an instant in microseconds since the epoch. */
    record Bound(boolean version, long value)
    {
        String text()
        {
            return (version ? "version " : "timestamp ") + value;
        }
    }

    static boolean requested(CaseInsensitiveStringMap options)
    {
        return Boolean.parseBoolean(options.getOrDefault(READ_CHANGE_FEED, "false").strip());
    }

    /** The request of the reader options; timestamps are read in {@code zone} (the session's time zone). */
    static ChangeFeedRequest of(CaseInsensitiveStringMap options, ZoneId zone)
    {
        Optional<Bound> start = bound(options, STARTING_VERSION, STARTING_TIMESTAMP, zone);
        if (start.isEmpty()) {
            throw SparkErrors.invalidTimeTravel("readChangeFeed needs a start: .option(\"startingVersion\", <snapshot id>) or .option(\"startingTimestamp\", "
                    + "\"<yyyy-MM-dd HH:mm:ss>\"); streaming change feeds are not supported");
        }
        return new ChangeFeedRequest(start.get(), bound(options, ENDING_VERSION, ENDING_TIMESTAMP, zone));
    }

    static boolean isIdentifierName(String name)
    {
        return name.startsWith(PREFIX);
    }

    String identifierName()
    {
        return PREFIX + start.text() + end.map(bound -> " to " + bound.text()).orElse("");
    }

    static ChangeFeedRequest parse(String identifierName)
    {
        Matcher matcher = NAME.matcher(identifierName);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a moraine change-feed request: " + identifierName);
        }
        Optional<Bound> end = matcher.group(3) == null
                ? Optional.empty()
                : Optional.of(new Bound(matcher.group(3).equals("version"), Long.parseLong(matcher.group(4))));
        return new ChangeFeedRequest(new Bound(matcher.group(1).equals("version"), Long.parseLong(matcher.group(2))), end);
    }

    private static Optional<Bound> bound(CaseInsensitiveStringMap options, String versionOption, String timestampOption, ZoneId zone)
    {
        String version = options.get(versionOption);
        String timestamp = options.get(timestampOption);
        if (version != null && timestamp != null) {
            throw SparkErrors.invalidTimeTravel("readChangeFeed takes " + versionOption + " or " + timestampOption + ", not both (were '" + version
                    + "' and '" + timestamp + "'); drop one");
        }
        if (version != null) {
            try {
                return Optional.of(new Bound(true, Long.parseLong(version.strip())));
            }
            catch (NumberFormatException e) {
                throw SparkErrors.invalidTimeTravel(versionOption + " takes a moraine snapshot id (a number), not '" + version + "'");
            }
        }
        if (timestamp != null) {
            scala.Option<Object> micros = DateTimeUtils.stringToTimestamp(UTF8String.fromString(timestamp.strip()), zone);
            if (micros.isEmpty()) {
                throw SparkErrors.invalidTimeTravel(timestampOption + " takes a timestamp such as '2026-01-31 12:00:00' (read in the session time zone "
                        + zone + "), not '" + timestamp + "'");
            }
            return Optional.of(new Bound(false, (Long) micros.get()));
        }
        return Optional.empty();
    }
}
