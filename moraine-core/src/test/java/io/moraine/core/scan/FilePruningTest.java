package io.moraine.core.scan;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class FilePruningTest
{
    private static final long COLUMN = 1;
    private static final Row DATA_FILE = Row.ofMap(TableKind.DATA_FILE, Map.of("data_file_id", 1L, "table_id", 1L));

    @Test
    void rangeOutsideMinMaxPrunesTheFile()
    {
        Map<Long, Row> stats = stats("10", "20", 0, 5);
        assertThat(mayMatch(PrimitiveKind.INT64, stats, between(21L, 30L))).isFalse();
        assertThat(mayMatch(PrimitiveKind.INT64, stats, between(1L, 9L))).isFalse();
        assertThat(mayMatch(PrimitiveKind.INT64, stats, between(20L, 30L))).isTrue();
        assertThat(mayMatch(PrimitiveKind.INT64, stats, between(1L, 10L))).isTrue();
        assertThat(mayMatch(PrimitiveKind.INT64, stats, between(12L, 15L))).isTrue();
    }

    @Test
    void engineValuesOfAnotherIntegerClassAreNormalisedBeforeComparing()
    {
        // Spark's EqualTo on an INT column carries an Integer; statistics parse as Long.
        Map<Long, Row> stats = stats("10", "20", 0, 5);
        ScanFilter filter = ScanFilter.of(Map.of(COLUMN, ColumnDomain.values(List.of(25))));
        assertThat(normalizedMayMatch(PrimitiveKind.INT32, stats, filter)).isFalse();
        assertThat(normalizedMayMatch(PrimitiveKind.INT32, stats, ScanFilter.of(Map.of(COLUMN, ColumnDomain.values(List.of(15)))))).isTrue();
        assertThat(normalizedMayMatch(PrimitiveKind.FLOAT32, stats("1.5", "2.5", 0, 5), ScanFilter.of(Map.of(COLUMN, ColumnDomain.values(List.of(3.0f)))))).isFalse();
    }

    @Test
    void decimalsCompareRegardlessOfScale()
    {
        TableColumn decimal = new TableColumn(COLUMN, "c", new DuckLakeType.Decimal(12, 2), Optional.empty());
        FilePruning pruning = new FilePruning(filter(between(new BigDecimal("30.5"), new BigDecimal("40"))), Map.of(COLUMN, decimal));
        assertThat(pruning.mayMatch(DATA_FILE, stats("1.25", "30.25", 0, 5), Map.of())).isFalse();
        assertThat(pruning.mayMatch(DATA_FILE, stats("1.25", "30.5", 0, 5), Map.of())).isTrue();
    }

    @Test
    void exclusiveBoundOnTheEdgePrunes()
    {
        ColumnDomain above20 = ColumnDomain.of(ValueRange.greaterThan(20L, false));
        assertThat(mayMatch(PrimitiveKind.INT64, stats("10", "20", 0, 5), above20)).isFalse();
    }

    @Test
    void missingOrUnparsableStatsKeepTheFile()
    {
        assertThat(mayMatch(PrimitiveKind.INT64, Map.of(), between(21L, 30L))).isTrue();
        assertThat(mayMatch(PrimitiveKind.INT64, stats(null, null, 0, 5), between(21L, 30L))).isTrue();
        assertThat(mayMatch(PrimitiveKind.INT64, stats("x", "y", 0, 5), between(21L, 30L))).isTrue();
        assertThat(mayMatch(PrimitiveKind.BLOB, stats("10", "20", 0, 5), between(21L, 30L))).isTrue();
    }

    @Test
    void nullsDecideIsNullAndNullAcceptingRanges()
    {
        assertThat(mayMatch(PrimitiveKind.INT64, stats("10", "20", 0, 5), ColumnDomain.onlyNull())).isFalse();
        assertThat(mayMatch(PrimitiveKind.INT64, stats("10", "20", 2, 5), ColumnDomain.onlyNull())).isTrue();
        ColumnDomain highOrNull = new ColumnDomain(List.of(ValueRange.greaterThan(100L, true)), true);
        assertThat(mayMatch(PrimitiveKind.INT64, stats("10", "20", 2, 5), highOrNull)).isTrue();
        assertThat(mayMatch(PrimitiveKind.INT64, stats("10", "20", 0, 5), highOrNull)).isFalse();
        assertThat(mayMatch(PrimitiveKind.INT64, stats(null, null, 5, 0), ColumnDomain.notNull())).isFalse();
    }

    @Test
    void inListKeepsAFileWhenAnyValueMayMatch()
    {
        Map<Long, Row> stats = stats("10", "20", 0, 5);
        assertThat(mayMatch(PrimitiveKind.INT64, stats, ColumnDomain.values(List.of(1L, 30L)))).isFalse();
        assertThat(mayMatch(PrimitiveKind.INT64, stats, ColumnDomain.values(List.of(1L, 15L)))).isTrue();
    }

    @Test
    void stringsCompareByUtf8BytesAndDatesByCalendar()
    {
        Map<Long, Row> names = stats("apple", "melon", 0, 5);
        assertThat(mayMatch(PrimitiveKind.VARCHAR, names, between("pear", "plum"))).isFalse();
        assertThat(mayMatch(PrimitiveKind.VARCHAR, names, between("kiwi", "kiwi"))).isTrue();
        // 'é' sorts after every ASCII letter by its UTF-8 bytes.
        assertThat(mayMatch(PrimitiveKind.VARCHAR, names, between("émile", "émile"))).isFalse();
        // U+FF61 sorts before U+1F600 by UTF-8 bytes (EF.. < F0..) but after it by UTF-16 units (FF61 > D83D):
        // a file spanning "a" to the emoji holds it only if strings compare as UTF-8.
        Map<Long, Row> wide = stats("a", "\uD83D\uDE00", 0, 5);
        assertThat(mayMatch(PrimitiveKind.VARCHAR, wide, between("\uFF61", "\uFF61"))).isTrue();
        assertThat(mayMatch(PrimitiveKind.VARCHAR, stats("a", "\uFF61", 0, 5), between("\uD83D\uDE00", "\uD83D\uDE00"))).isFalse();
        Map<Long, Row> days = stats("2024-01-01", "2024-01-31", 0, 5);
        assertThat(mayMatch(PrimitiveKind.DATE, days, between(LocalDate.of(2024, 2, 1), LocalDate.of(2024, 3, 1)))).isFalse();
        assertThat(mayMatch(PrimitiveKind.DATE, days, between(LocalDate.of(2024, 1, 15), LocalDate.of(2024, 3, 1)))).isTrue();
    }

    @Test
    void timestampsWithTimeZoneAndUuidsCompareAsDuckDbOrdersThem()
    {
        Map<Long, Row> times = stats("2026-01-01 00:00:00+00", "2026-01-01 10:00:00.5+00", 0, 5);
        assertThat(mayMatch(PrimitiveKind.TIMESTAMPTZ, times, between(java.time.Instant.parse("2026-01-01T10:00:01Z"), java.time.Instant.parse("2026-01-02T00:00:00Z"))))
                .isFalse();
        assertThat(mayMatch(PrimitiveKind.TIMESTAMPTZ, times, between(java.time.Instant.parse("2026-01-01T10:00:00.25Z"), java.time.Instant.parse("2026-01-02T00:00:00Z"))))
                .isTrue();
        // UUIDs order as unsigned 128-bit numbers: 8... sorts after 0...
        Map<Long, Row> ids = stats("00000000-0000-0000-0000-000000000001", "7fffffff-0000-0000-0000-000000000000", 0, 5);
        java.util.UUID high = java.util.UUID.fromString("80000000-0000-0000-0000-000000000000");
        assertThat(mayMatch(PrimitiveKind.UUID, ids, between(high, high))).isFalse();
    }

    @Test
    void floatStatisticsAreReadAsFloatsAndNegativeZeroEqualsZero()
    {
        // DuckDB writes a float32's shortest text; REAL '0.1' arrives as (double) 0.1f, which the text must cover.
        ScanFilter realTenth = ScanFilter.of(Map.of(COLUMN, ColumnDomain.values(List.of(0.1f))));
        assertThat(normalizedMayMatch(PrimitiveKind.FLOAT32, stats("0.1", "0.1", 0, 5), realTenth)).isTrue();
        // A float64 column retyped from float32 keeps its older files' float texts.
        assertThat(mayMatch(PrimitiveKind.FLOAT64, stats("0.1", "0.1", 0, 5), ColumnDomain.values(List.of((double) 0.1f)))).isTrue();
        assertThat(mayMatch(PrimitiveKind.FLOAT64, stats("-0.0", "-0.0", 0, 5), ColumnDomain.values(List.of(0.0)))).isTrue();
    }

    @Test
    void bucketsAreOnlyComputedForTypesWhoseHashingIsKnown()
    {
        assertThat(io.moraine.core.types.BucketHash.bucketOf(DuckLakeType.of(PrimitiveKind.INT32), 17L, 4)).isPresent();
        // DuckDB hashes unsigned integers by their text and timestamp_ms in milliseconds: moraine does not prune on them.
        assertThat(io.moraine.core.types.BucketHash.bucketOf(DuckLakeType.of(PrimitiveKind.UINT16), 17L, 4)).isEmpty();
        assertThat(io.moraine.core.types.BucketHash.bucketOf(DuckLakeType.of(PrimitiveKind.TIMESTAMP_MS), java.time.LocalDateTime.of(2026, 1, 1, 0, 0), 4)).isEmpty();
    }

    @Test
    void nanInAFloatColumnKeepsTheFile()
    {
        Map<String, Object> cells = statsCells("1.0", "2.0", 0, 5);
        cells.put("contains_nan", true);
        Map<Long, Row> stats = Map.of(COLUMN, Row.ofMap(TableKind.FILE_COLUMN_STATS, cells));
        assertThat(mayMatch(PrimitiveKind.FLOAT64, stats, between(5.0, 6.0))).isTrue();
    }

    private static boolean mayMatch(PrimitiveKind type, Map<Long, Row> stats, ColumnDomain domain)
    {
        return new FilePruning(filter(domain), Map.of(COLUMN, column(type))).mayMatch(DATA_FILE, stats, Map.of());
    }

    /** Through {@link ScanBuilder}'s normalisation, as an engine's filter arrives. */
    private static boolean normalizedMayMatch(PrimitiveKind type, Map<Long, Row> stats, ScanFilter filter)
    {
        TableColumn column = column(type);
        ScanFilter normalized = ScanFilter.of(Map.of(COLUMN, new ColumnDomain(filter.domains().get(COLUMN).ranges().stream()
                .map(range -> ValueRange.equalTo(io.moraine.core.types.DuckLakeValues.normalize(column.type(), range.low().orElseThrow()).orElseThrow()))
                .toList(), false)));
        return new FilePruning(normalized, Map.of(COLUMN, column)).mayMatch(DATA_FILE, stats, Map.of());
    }

    private static TableColumn column(PrimitiveKind type)
    {
        return new TableColumn(COLUMN, "c", DuckLakeType.of(type), Optional.empty());
    }

    private static ScanFilter filter(ColumnDomain domain)
    {
        return ScanFilter.of(Map.of(COLUMN, domain));
    }

    private static ColumnDomain between(Object low, Object high)
    {
        return ColumnDomain.of(new ValueRange(Optional.of(low), true, Optional.of(high), true));
    }

    private static Map<Long, Row> stats(String min, String max, long nullCount, long valueCount)
    {
        return Map.of(COLUMN, Row.ofMap(TableKind.FILE_COLUMN_STATS, statsCells(min, max, nullCount, valueCount)));
    }

    private static Map<String, Object> statsCells(String min, String max, long nullCount, long valueCount)
    {
        Map<String, Object> cells = new HashMap<>();
        cells.put("data_file_id", 1L);
        cells.put("table_id", 1L);
        cells.put("column_id", COLUMN);
        cells.put("min_value", min);
        cells.put("max_value", max);
        cells.put("null_count", nullCount);
        cells.put("value_count", valueCount);
        return cells;
    }
}
