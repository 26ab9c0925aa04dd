package io.moraine.core.catalog;

import io.moraine.core.catalog.FileStatsFilter.ValueRange;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class FileStatsFilterTest
{
    private static final long COLUMN = 1;

    @Test
    void rangeOutsideMinMaxPrunesTheFile()
    {
        Map<Long, Row> stats = stats("10", "20", 0, 5);
        assertThat(FileStatsFilter.mayMatch(stats, Map.of(COLUMN, between("int64", 21L, 30L)))).isFalse();
        assertThat(FileStatsFilter.mayMatch(stats, Map.of(COLUMN, between("int64", 1L, 9L)))).isFalse();
        assertThat(FileStatsFilter.mayMatch(stats, Map.of(COLUMN, between("int64", 20L, 30L)))).isTrue();
        assertThat(FileStatsFilter.mayMatch(stats, Map.of(COLUMN, between("int64", 1L, 10L)))).isTrue();
        assertThat(FileStatsFilter.mayMatch(stats, Map.of(COLUMN, between("int64", 12L, 15L)))).isTrue();
    }

    @Test
    void exclusiveBoundOnTheEdgePrunes()
    {
        ValueRange above20 = new ValueRange("int64", Optional.of(20L), false, Optional.empty(), false, false, true);
        assertThat(FileStatsFilter.mayMatch(stats("10", "20", 0, 5), Map.of(COLUMN, above20))).isFalse();
    }

    @Test
    void missingOrUnparsableStatsKeepTheFile()
    {
        assertThat(FileStatsFilter.mayMatch(Map.of(), Map.of(COLUMN, between("int64", 21L, 30L)))).isTrue();
        assertThat(FileStatsFilter.mayMatch(stats(null, null, 0, 5), Map.of(COLUMN, between("int64", 21L, 30L)))).isTrue();
        assertThat(FileStatsFilter.mayMatch(stats("x", "y", 0, 5), Map.of(COLUMN, between("int64", 21L, 30L)))).isTrue();
        assertThat(FileStatsFilter.mayMatch(stats("10", "20", 0, 5), Map.of(COLUMN, between("blob", 21L, 30L)))).isTrue();
    }

    @Test
    void nullsDecideIsNullAndNullAcceptingRanges()
    {
        ValueRange isNull = new ValueRange("int64", Optional.empty(), false, Optional.empty(), false, true, false);
        assertThat(FileStatsFilter.mayMatch(stats("10", "20", 0, 5), Map.of(COLUMN, isNull))).isFalse();
        assertThat(FileStatsFilter.mayMatch(stats("10", "20", 2, 5), Map.of(COLUMN, isNull))).isTrue();
        ValueRange highOrNull = new ValueRange("int64", Optional.of(100L), true, Optional.empty(), false, true, true);
        assertThat(FileStatsFilter.mayMatch(stats("10", "20", 2, 5), Map.of(COLUMN, highOrNull))).isTrue();
        assertThat(FileStatsFilter.mayMatch(stats("10", "20", 0, 5), Map.of(COLUMN, highOrNull))).isFalse();
    }

    @Test
    void stringsCompareByUtf8BytesAndDatesByCalendar()
    {
        Map<Long, Row> names = stats("apple", "melon", 0, 5);
        assertThat(FileStatsFilter.mayMatch(names, Map.of(COLUMN, between("varchar", new FileStatsFilter.Utf8("pear"), new FileStatsFilter.Utf8("plum"))))).isFalse();
        assertThat(FileStatsFilter.mayMatch(names, Map.of(COLUMN, between("varchar", new FileStatsFilter.Utf8("kiwi"), new FileStatsFilter.Utf8("kiwi"))))).isTrue();
        // 'é' sorts after every ASCII letter by its UTF-8 bytes.
        assertThat(FileStatsFilter.mayMatch(names, Map.of(COLUMN, between("varchar", new FileStatsFilter.Utf8("émile"), new FileStatsFilter.Utf8("émile"))))).isFalse();
        Map<Long, Row> days = stats("2024-01-01", "2024-01-31", 0, 5);
        assertThat(FileStatsFilter.mayMatch(days, Map.of(COLUMN, between("date", LocalDate.of(2024, 2, 1), LocalDate.of(2024, 3, 1))))).isFalse();
        assertThat(FileStatsFilter.mayMatch(days, Map.of(COLUMN, between("date", LocalDate.of(2024, 1, 15), LocalDate.of(2024, 3, 1))))).isTrue();
    }

    @Test
    void nanInAFloatColumnKeepsTheFile()
    {
        Map<String, Object> cells = statsCells("1.0", "2.0", 0, 5);
        cells.put("contains_nan", true);
        Map<Long, Row> stats = Map.of(COLUMN, Row.ofMap(TableKind.FILE_COLUMN_STATS, cells));
        assertThat(FileStatsFilter.mayMatch(stats, Map.of(COLUMN, between("float64", 5.0, 6.0)))).isTrue();
    }

    private static ValueRange between(String type, Comparable<?> low, Comparable<?> high)
    {
        return new ValueRange(type, Optional.of(low), true, Optional.of(high), true, false, true);
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
