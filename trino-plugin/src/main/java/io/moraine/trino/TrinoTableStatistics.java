package io.moraine.trino;

import io.moraine.core.stats.ColumnStatistics;
import io.trino.spi.statistics.DoubleRange;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.StatsUtil;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.util.List;
import java.util.OptionalDouble;

/**
 * The core's {@link io.moraine.core.stats.TableStatistics} as Trino's: values through {@link TrinoValues}, bounds in
 * Trino's double representation. What the core leaves unknown stays unknown; no distinct-value counts are reported.
 */
final class TrinoTableStatistics
{
    private TrinoTableStatistics() {}

    static TableStatistics toTrino(io.moraine.core.stats.TableStatistics statistics, List<MoraineColumnHandle> columns)
    {
        if (statistics.rowCount().isEmpty()) {
            return TableStatistics.empty();
        }
        TableStatistics.Builder builder = TableStatistics.builder().setRowCount(Estimate.of(statistics.rowCount().getAsLong()));
        for (MoraineColumnHandle column : columns) {
            ColumnStatistics known = statistics.column(column.columnId());
            if (known.equals(ColumnStatistics.UNKNOWN)) {
                continue;
            }
            io.trino.spi.statistics.ColumnStatistics.Builder columnBuilder = io.trino.spi.statistics.ColumnStatistics.builder();
            known.nullsFraction().ifPresent(fraction -> columnBuilder.setNullsFraction(Estimate.of(fraction)));
            if (isVariableWidth(column.type())) {
                known.dataSizeBytes().ifPresent(bytes -> columnBuilder.setDataSize(Estimate.of(bytes)));
            }
            if (known.min().isPresent() && known.max().isPresent() && !column.isInterval()) {
                OptionalDouble low = statsValue(column, known.min().get());
                OptionalDouble high = statsValue(column, known.max().get());
                if (low.isPresent() && high.isPresent() && low.getAsDouble() <= high.getAsDouble()) {
                    columnBuilder.setRange(new DoubleRange(low.getAsDouble(), high.getAsDouble()));
                }
            }
            builder.setColumnStatistics(column, columnBuilder.build());
        }
        return builder.build();
    }

    /** A bound as Trino's statistics represent it (numbers, dates and timestamps only), or empty. */
    private static OptionalDouble statsValue(MoraineColumnHandle column, Object value)
    {
        try {
            return StatsUtil.toStatsRepresentation(column.type(), TrinoValues.toTrino(column.type(), value, column.name()));
        }
        catch (RuntimeException e) {
            // A bound the column's Trino type cannot hold (e.g. a uint64 beyond bigint) is left out rather than guessed.
            return OptionalDouble.empty();
        }
    }

    private static boolean isVariableWidth(Type type)
    {
        return type instanceof VarcharType || type instanceof VarbinaryType;
    }
}
