package io.moraine.core.catalog;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prunes data files of {@code bucket(N)} partitions for equality and IN predicates (reference §4.9): each constant is
 * hashed as DuckDB's {@code murmur3_32} does (§9: signed integers and dates as 8-byte little-endian longs, strings as
 * their UTF-8 bytes; seed 0), and a file is kept only if its partition value is one of the constants' buckets. Each
 * file is judged through its own {@code partition_id}'s key columns (§2.15). Other types are never pruned. Writers
 * bucket values with the same hashing ({@link PartitionTransform}).
 */
public final class BucketPartitionFilter
{
    private static final Pattern BUCKET = Pattern.compile("bucket\\((\\d+)\\)");
    private static final HashFunction MURMUR3 = Hashing.murmur3_32_fixed();

    private BucketPartitionFilter() {}

    /**
     * A test on {@code ducklake_data_file} rows of the table: whether the file may hold rows whose column (by id) equals
     * one of its values; values are {@link Long} for integer columns, {@link LocalDate} for dates and
     * {@link FileStatsFilter.Utf8} for strings. Reads the table's partition keys once, and its partition values only
     * when a bucket key is constrained.
     */
    public static Predicate<Row> filesMayMatch(CatalogSnapshot snapshot, long tableId, Map<Long, List<Object>> valuesByColumn)
    {
        if (valuesByColumn.isEmpty() || !anyBucketKeyOn(snapshot, tableId, valuesByColumn)) {
            return file -> true;
        }
        Map<Long, List<Row>> keysBySpec = new HashMap<>();
        Map<Long, Map<Long, String>> valuesOfFile = new HashMap<>();
        try (RowCursor values = snapshot.filePartitionValues(tableId)) {
            values.forEachRemaining(value -> valuesOfFile.computeIfAbsent(value.getLong("data_file_id"), id -> new HashMap<>())
                    .put(value.getLong("partition_key_index"), value.getString("partition_value")));
        }
        return file -> {
            Long spec = file.getLong("partition_id");
            if (spec == null) {
                return true;
            }
            long fileId = file.getLong("data_file_id");
            for (Row key : keysBySpec.computeIfAbsent(spec, id -> snapshot.partitionColumns(tableId, id))) {
                Optional<Integer> buckets = bucketCount(key);
                List<Object> values = valuesByColumn.get(key.getLong("column_id"));
                if (buckets.isEmpty() || values == null) {
                    continue;
                }
                Optional<Set<String>> allowed = bucketsOf(values, buckets.get());
                String fileBucket = valuesOfFile.getOrDefault(fileId, Map.of()).get(key.getLong("partition_key_index"));
                if (allowed.isPresent() && fileBucket != null && !allowed.get().contains(fileBucket)) {
                    return false;
                }
            }
            return true;
        };
    }

    /** Whether any partition spec the table ever had buckets a constrained column (one scan of its key columns). */
    private static boolean anyBucketKeyOn(CatalogSnapshot snapshot, long tableId, Map<Long, List<Object>> valuesByColumn)
    {
        try (RowCursor keys = snapshot.children(TableKind.PARTITION_COLUMN, tableId)) {
            while (keys.hasNext()) {
                Row key = keys.next();
                if (bucketCount(key).isPresent() && valuesByColumn.containsKey(key.getLong("column_id"))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Optional<Integer> bucketCount(Row partitionColumn)
    {
        Matcher matcher = BUCKET.matcher(partitionColumn.getString("transform").strip());
        return matcher.matches() ? Optional.of(Integer.parseInt(matcher.group(1))) : Optional.empty();
    }

    /**
     * The bucket {@code bucket(N)} puts the value in: {@code (murmur3_32(v) & 0x7fffffff) % N}; empty when the value's
     * hashing is unknown. Values as {@link PartitionTransform} takes them.
     */
    static Optional<Integer> bucketOf(Object value, int buckets)
    {
        return hash(value).map(hash -> (hash & Integer.MAX_VALUE) % buckets);
    }

    /** The bucket numbers (as DuckLake writes them, decimal text) of the values; empty when a value's hashing is unknown. */
    private static Optional<Set<String>> bucketsOf(List<Object> values, int buckets)
    {
        Set<String> result = new HashSet<>();
        for (Object value : values) {
            Optional<Integer> hash = hash(value);
            if (hash.isEmpty()) {
                return Optional.empty();
            }
            result.add(Integer.toString((hash.get() & Integer.MAX_VALUE) % buckets));
        }
        return Optional.of(result);
    }

    private static long micros(Instant instant)
    {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
    }

    static Optional<Integer> hash(Object value)
    {
        return switch (value) {
            case Long number -> Optional.of(MURMUR3.hashLong(number).asInt());
            case LocalDate date -> Optional.of(MURMUR3.hashLong(date.toEpochDay()).asInt());
            case FileStatsFilter.Utf8 text -> Optional.of(MURMUR3.hashBytes(text.value().getBytes(StandardCharsets.UTF_8)).asInt());
            case String text -> Optional.of(MURMUR3.hashBytes(text.getBytes(StandardCharsets.UTF_8)).asInt());
            case Boolean bool -> Optional.of(MURMUR3.hashLong(bool ? 1 : 0).asInt());
            // timestamp and timestamptz hash their microseconds since the epoch
            case LocalDateTime timestamp -> Optional.of(MURMUR3.hashLong(micros(timestamp.toInstant(ZoneOffset.UTC))).asInt());
            case Instant instant -> Optional.of(MURMUR3.hashLong(micros(instant)).asInt());
            default -> Optional.empty();
        };
    }
}
