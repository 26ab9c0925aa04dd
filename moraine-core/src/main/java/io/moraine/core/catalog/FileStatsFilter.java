package io.moraine.core.catalog;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * Decides from {@code ducklake_file_column_stats} whether a data file can hold rows matching per-column value ranges
 * (reference §4.9). A file is kept whenever its statistics cannot rule it out: no stats row for the column, NULL
 * min/max, a type whose statistics are not compared here, or NaNs in a floating-point column.
 */
public final class FileStatsFilter
{
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSSSSS][.SSSSS][.SSSS][.SSS][.SS][.S]");

    /**
     * The values a query accepts in one column: an optional lower and upper bound (as Long, Double, BigDecimal, String,
     * LocalDate or LocalDateTime, matching the column's DuckLake type), and whether NULL is accepted.
     */
    public record ValueRange(String duckLakeType, Optional<Comparable<?>> low, boolean lowInclusive, Optional<Comparable<?>> high,
            boolean highInclusive, boolean nullAllowed, boolean valuesAllowed) {}

    private FileStatsFilter() {}

    /**
     * The data files of a table at a snapshot that may hold rows in every range, as a test on {@code data_file_id}; reads
     * the table's stats rows once, keeping only the constrained columns.
     */
    public static LongPredicate filesMayMatch(CatalogSnapshot snapshot, long tableId, Map<Long, ValueRange> ranges)
    {
        Map<Long, List<ValueRange>> alternatives = new HashMap<>();
        ranges.forEach((column, range) -> alternatives.put(column, List.of(range)));
        return filesMayMatchAny(snapshot, tableId, alternatives);
    }

    /**
     * As {@link #filesMayMatch}, with each column allowed any of several ranges (an IN list, a dynamic filter's value
     * set): a file is kept if, for every column, one of its ranges may match (reference §4.9, IN as OR of equalities).
     */
    public static LongPredicate filesMayMatchAny(CatalogSnapshot snapshot, long tableId, Map<Long, List<ValueRange>> alternatives)
    {
        if (alternatives.isEmpty()) {
            return fileId -> true;
        }
        Map<Long, Map<Long, Row>> statsByFile = new HashMap<>();
        try (RowCursor rows = snapshot.fileColumnStats(tableId)) {
            rows.forEachRemaining(row -> {
                if (alternatives.containsKey(row.getLong("column_id"))) {
                    statsByFile.computeIfAbsent(row.getLong("data_file_id"), ignored -> new HashMap<>()).put(row.getLong("column_id"), row);
                }
            });
        }
        return fileId -> mayMatchAny(statsByFile.getOrDefault(fileId, Map.of()), alternatives);
    }

    /** Whether a file whose stats rows (by column id) are {@code stats} may hold rows in every range. */
    public static boolean mayMatch(Map<Long, Row> stats, Map<Long, ValueRange> ranges)
    {
        for (Map.Entry<Long, ValueRange> entry : ranges.entrySet()) {
            Row columnStats = stats.get(entry.getKey());
            if (columnStats != null && excludes(columnStats, entry.getValue())) {
                return false;
            }
        }
        return true;
    }

    private static boolean mayMatchAny(Map<Long, Row> stats, Map<Long, List<ValueRange>> alternatives)
    {
        for (Map.Entry<Long, List<ValueRange>> entry : alternatives.entrySet()) {
            Row columnStats = stats.get(entry.getKey());
            if (columnStats != null && entry.getValue().stream().allMatch(range -> excludes(columnStats, range))) {
                return false;
            }
        }
        return true;
    }

    private static boolean excludes(Row stats, ValueRange range)
    {
        Long nullCount = stats.getLong("null_count");
        Long valueCount = stats.getLong("value_count");
        if (!range.valuesAllowed()) {
            // IS NULL: only files with NULLs can match.
            return nullCount != null && nullCount == 0;
        }
        if (valueCount != null && valueCount == 0) {
            // Every value is NULL: only a range that accepts NULL can match.
            return !range.nullAllowed();
        }
        if (Boolean.TRUE.equals(stats.get("contains_nan"))) {
            return false;
        }
        Optional<Comparable<Object>> min = parse(range.duckLakeType(), stats.getString("min_value"));
        Optional<Comparable<Object>> max = parse(range.duckLakeType(), stats.getString("max_value"));
        if (min.isEmpty() || max.isEmpty() || range.nullAllowed() && (nullCount == null || nullCount > 0)) {
            return false;
        }
        if (range.low().isPresent()) {
            int compared = max.get().compareTo(range.low().get());
            if (compared < 0 || compared == 0 && !range.lowInclusive()) {
                return true;
            }
        }
        if (range.high().isPresent()) {
            int compared = min.get().compareTo(range.high().get());
            return compared > 0 || compared == 0 && !range.highInclusive();
        }
        return false;
    }

    /** A min/max string as a comparable value of the column's type, or empty when not compared (reference §7.3). */
    @SuppressWarnings("unchecked")
    private static Optional<Comparable<Object>> parse(String duckLakeType, String text)
    {
        if (text == null) {
            return Optional.empty();
        }
        String type = duckLakeType.toLowerCase(Locale.ROOT);
        try {
            Comparable<?> value = switch (type) {
                case "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32" -> Long.parseLong(text);
                case "float32", "float64" -> Double.parseDouble(text.replace("inf", "Infinity"));
                case "date" -> LocalDate.parse(text);
                case "timestamp", "timestamp_us", "timestamp_ms", "timestamp_s" -> LocalDateTime.parse(text, TIMESTAMP);
                case "varchar" -> new Utf8(text);
                default -> type.startsWith("decimal(") ? new BigDecimal(text) : null;
            };
            return Optional.ofNullable((Comparable<Object>) (Comparable<?>) value);
        }
        catch (NumberFormatException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** Strings compared as DuckDB compares them: by their UTF-8 bytes, unsigned. */
    public record Utf8(String value)
            implements Comparable<Object>
    {
        @Override
        public int compareTo(Object other)
        {
            String otherValue = other instanceof Utf8 utf8 ? utf8.value() : other.toString();
            return Arrays.compareUnsigned(value.getBytes(StandardCharsets.UTF_8), otherValue.getBytes(StandardCharsets.UTF_8));
        }
    }
}
