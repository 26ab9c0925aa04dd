package io.moraine.core.catalog;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.row.ColumnNode;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Partition values and hive directories as DuckLake writes them (checked against DuckLake by the flush oracle tests). */
class PartitionSpecTest
{
    @Test
    void keyNamesEscapingAndNulls()
    {
        List<ColumnNode> columns = List.of(column(1, "region", "varchar"), column(2, "ts", "timestamptz"), column(3, "d", "date"));
        PartitionSpec spec = PartitionSpec.of(7, List.of(key(0, 1, "identity"), key(1, 2, "year"), key(2, 3, "year"), key(3, 2, "hour")), columns);
        assertThat(spec.keys()).extracting(PartitionSpec.Key::hiveName).containsExactly("region", "year", "year_d", "hour");
        Map<Long, Object> row = Map.of(1L, "a b/c=d%é", 2L, Instant.parse("2025-12-31T23:30:00Z"));
        List<String> values = spec.valueTexts(row::get);
        assertThat(values).containsExactly("a b/c=d%é", "2025", null, "23");
        assertThat(spec.hiveDirectory(values)).isEqualTo("region=a%20b%2Fc%3Dd%25%C3%A9/year=2025/year_d=__HIVE_DEFAULT_PARTITION__/hour=23/");
    }

    @Test
    void identityValuesPrintAsDuckDb()
    {
        assertThat(Arrays.asList(io.moraine.core.types.DuckLakeValues.text(new BigDecimal("1.50")), io.moraine.core.types.DuckLakeValues.text(LocalDateTime.parse("2024-01-15T12:30:00.250")),
                io.moraine.core.types.DuckLakeValues.text(Instant.parse("2024-01-15T12:30:00Z")), io.moraine.core.types.DuckLakeValues.text(true)))
                .containsExactly("1.50", "2024-01-15 12:30:00.25", "2024-01-15 12:30:00+00", "true");
    }

    @Test
    void unknownTransformsAreRefused()
    {
        assertThatThrownBy(() -> PartitionTransform.parse("epoch_day"))
                .isInstanceOf(UnsupportedFeatureException.class)
                .hasMessageContaining("epoch_day")
                .hasMessageContaining("ducklake_flush_inlined_data");
    }

    private static Row key(long index, long columnId, String transform)
    {
        return Row.of(TableKind.PARTITION_COLUMN, 7L, 1L, index, columnId, transform);
    }

    private static ColumnNode column(long id, String name, String type)
    {
        return new ColumnNode(Row.of(TableKind.COLUMN, id, 1L, null, 1L, id, name, type, null, null, true, null, null, null), List.of());
    }
}
