package io.moraine.core.stats;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.scan.ScanFilter;
import io.moraine.core.types.TableSchema;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * What the catalog says about a table's rows at one snapshot, for a cost-based optimizer: an exact row count and, per
 * top-level column, bounds, NULL fraction and size, each present only where the catalog makes it right at that
 * snapshot ({@link TableStatisticsReader} has the rules). Nothing is read from the data files.
 *
 * @param rowCount the rows visible at the snapshot (of the files the filter may match), exact
 * @param columns by column id; a column that is absent is unknown
 */
public record TableStatistics(OptionalLong rowCount, Map<Long, ColumnStatistics> columns)
{
    public static final TableStatistics UNKNOWN = new TableStatistics(OptionalLong.empty(), Map.of());

    public TableStatistics
    {
        requireNonNull(rowCount, "rowCount is null");
        columns = Map.copyOf(columns);
    }

    /** The statistics of table {@code tableId} at {@code snapshot}, over the data files {@code filter} may match. */
    public static TableStatistics of(CatalogSnapshot snapshot, long tableId, TableSchema schema, ScanFilter filter)
    {
        return new TableStatisticsReader(snapshot, tableId, schema, filter).read();
    }

    public ColumnStatistics column(long columnId)
    {
        return Optional.ofNullable(columns.get(columnId)).orElse(ColumnStatistics.UNKNOWN);
    }
}
