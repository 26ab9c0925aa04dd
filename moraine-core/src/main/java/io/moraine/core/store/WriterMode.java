package io.moraine.core.store;

import io.moraine.core.error.InvalidArgumentException;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What a {@link OpenMode#READ_WRITE} handle does when another process opens the store read-write and fences it. */
public enum WriterMode
{
    /**
     * The writer moves between processes: a fenced handle serves reads from a reader, and its next commit takes the
     * writer back (reopening SlateDB's writer, which fences the other process) and re-checks itself against what
     * landed meanwhile (docs/writes.md, "The writer hand-off").
     */
    HANDOFF,
    /** One process keeps the writer: once fenced, a handle fails every commit with {@code FencedException}. */
    EXCLUSIVE;

    /** Parses a user-given value (any case); anything else is refused with the values that exist. */
    public static WriterMode parse(String value, String what)
    {
        for (WriterMode mode : values()) {
            if (mode.name().equalsIgnoreCase(value.strip())) {
                return mode;
            }
        }
        throw new InvalidArgumentException(what + " must be one of " + Arrays.stream(values()).map(mode -> mode.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", ")) + ", not '" + value + "'");
    }
}
