package io.moraine.core.catalog;

import io.moraine.core.error.UnsupportedFeatureException;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code ducklake_partition_column.transform} (reference §2.15): {@code identity}, the calendar fields
 * {@code year}, {@code month}, {@code day}, {@code hour} (DuckDB's scalar functions: {@code month} is 1..12, not months
 * since the epoch; {@code timestamptz} is read in UTC) and {@code bucket(N)} (DuckDB's murmur3, §9 item 13).
 * Values are Java objects: {@link Long} for signed integers, {@link String}, {@link LocalDate}, {@link LocalDateTime}
 * for {@code timestamp}, {@link Instant} for {@code timestamptz}, {@link java.math.BigDecimal}, {@link Boolean},
 * {@link java.util.UUID}; {@code null} is SQL NULL and stays NULL.
 */
public record PartitionTransform(Kind kind, int buckets)
{
    private static final Pattern BUCKET = Pattern.compile("bucket\\((\\d+)\\)");

    public enum Kind
    {
        IDENTITY, YEAR, MONTH, DAY, HOUR, BUCKET
    }

    public static PartitionTransform parse(String text)
    {
        String normalized = text.strip().toLowerCase(Locale.ROOT);
        Matcher bucket = BUCKET.matcher(normalized);
        if (bucket.matches()) {
            return new PartitionTransform(Kind.BUCKET, Integer.parseInt(bucket.group(1)));
        }
        return switch (normalized) {
            case "identity" -> new PartitionTransform(Kind.IDENTITY, 0);
            case "year" -> new PartitionTransform(Kind.YEAR, 0);
            case "month" -> new PartitionTransform(Kind.MONTH, 0);
            case "day" -> new PartitionTransform(Kind.DAY, 0);
            case "hour" -> new PartitionTransform(Kind.HOUR, 0);
            default -> throw new UnsupportedFeatureException("partition transform '" + text + "' is not supported by moraine; "
                    + "supported are identity, year, month, day, hour and bucket(N). Flush this table with DuckDB: CALL ducklake_flush_inlined_data(...)");
        };
    }

    /** The transform as {@code ducklake_partition_column.transform} stores it: {@code identity}, {@code year}, ..., {@code bucket(N)}. */
    public String text()
    {
        return kind == Kind.BUCKET ? "bucket(" + buckets + ")" : kind.name().toLowerCase(Locale.ROOT);
    }

    /** The hive key name DuckLake gives this transform before de-duplication: the column's name for identity, else the transform's. */
    public String keyPrefix(String columnName)
    {
        return kind == Kind.IDENTITY ? columnName : kind.name().toLowerCase(Locale.ROOT);
    }

    /** The transformed value of {@code value} (of column type {@code columnType}, for messages). */
    public Object apply(Object value, String columnType)
    {
        if (value == null) {
            return null;
        }
        return switch (kind) {
            case IDENTITY -> value;
            case YEAR -> (long) dateTime(value, columnType).getYear();
            case MONTH -> (long) dateTime(value, columnType).getMonthValue();
            case DAY -> (long) dateTime(value, columnType).getDayOfMonth();
            case HOUR -> (long) dateTime(value, columnType).getHour();
            case BUCKET -> (long) io.moraine.core.types.BucketHash.bucketOf(io.moraine.core.types.DuckLakeType.parseScalar("partition key", columnType), value, buckets)
                    .orElseThrow(() -> unsupported(columnType));
        };
    }

    private LocalDateTime dateTime(Object value, String columnType)
    {
        return switch (value) {
            case LocalDate date -> date.atStartOfDay();
            case LocalDateTime timestamp -> timestamp;
            case Instant instant -> LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
            default -> throw unsupported(columnType);
        };
    }

    private UnsupportedFeatureException unsupported(String columnType)
    {
        return new UnsupportedFeatureException("partition transform " + (kind == Kind.BUCKET ? "bucket(" + buckets + ")" : kind.name().toLowerCase(Locale.ROOT))
                + " on a column of type " + columnType + " is not supported by moraine. Flush this table with DuckDB: CALL ducklake_flush_inlined_data(...)");
    }
}
