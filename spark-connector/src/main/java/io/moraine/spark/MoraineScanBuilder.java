package io.moraine.spark;

import io.moraine.core.scan.ScanFilter;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Builds a scan of a {@link MoraineTable}: the columns Spark needs (pruned to nested fields, mapped back to the
 * catalog's columns by name so that field ids come from the catalog), metadata columns, the predicates the core prunes
 * files and partitions with (all of them are still evaluated by Spark), a limit, and {@code count(*)} without a filter
 * when the catalog knows the row count exactly (the core's {@link io.moraine.core.stats.TableStatistics} rule): then no
 * file is read ({@link MetadataCountScan}).
 */
final class MoraineScanBuilder
        implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownV2Filters, SupportsPushDownLimit, SupportsPushDownAggregates
{
    private final MoraineTable table;
    private List<TableColumn> columns;
    private List<MetadataColumns.Column> metadata = List.of();
    private Predicate[] pushed = new Predicate[0];
    private ScanFilter filter = ScanFilter.all();
    private long limit = -1;
    private OptionalLong pushedCount = OptionalLong.empty();
    private int pushedCounts;

    MoraineScanBuilder(MoraineTable table)
    {
        this.table = table;
        this.columns = table.tableSchema().columns();
    }

    @Override
    public void pruneColumns(StructType required)
    {
        List<TableColumn> read = new ArrayList<>();
        List<MetadataColumns.Column> meta = new ArrayList<>();
        for (StructField field : required.fields()) {
            Optional<TableColumn> column = table.tableSchema().columns().stream().filter(candidate -> candidate.name().equals(field.name())).findFirst();
            if (column.isPresent()) {
                read.add(pruned(column.get(), field.dataType()));
                continue;
            }
            meta.add(MetadataColumns.byName(field.name()).orElseThrow(() -> new IllegalArgumentException("table " + table.name() + " has no column " + field.name())));
        }
        this.columns = List.copyOf(read);
        this.metadata = List.copyOf(meta);
    }

    /** The column keeping only the struct fields (at any depth) that {@code required} keeps, in the column's order. */
    private static TableColumn pruned(TableColumn column, DataType required)
    {
        DuckLakeType type = switch (column.type()) {
            case DuckLakeType.StructOf struct when required instanceof StructType fields -> {
                List<TableColumn> kept = new ArrayList<>();
                for (TableColumn field : struct.fields()) {
                    for (StructField wanted : fields.fields()) {
                        if (wanted.name().equals(field.name())) {
                            kept.add(pruned(field, wanted.dataType()));
                        }
                    }
                }
                yield kept.size() == struct.fields().size() && kept.equals(struct.fields()) ? struct : new DuckLakeType.StructOf(kept);
            }
            case DuckLakeType.ListOf list when required instanceof ArrayType array -> new DuckLakeType.ListOf(pruned(list.element(), array.elementType()));
            case DuckLakeType.MapOf map when required instanceof MapType entries -> new DuckLakeType.MapOf(pruned(map.key(), entries.keyType()),
                    pruned(map.value(), entries.valueType()));
            default -> column.type();
        };
        return type == column.type() ? column : column.withType(type);
    }

    @Override
    public Predicate[] pushPredicates(Predicate[] predicates)
    {
        SparkFilters.Converted converted = SparkFilters.convert(predicates, table.tableSchema());
        this.pushed = converted.predicates().toArray(Predicate[]::new);
        this.filter = converted.filter();
        // Pruning only: Spark evaluates every predicate on the rows read.
        return predicates;
    }

    @Override
    public Predicate[] pushedPredicates()
    {
        return pushed;
    }

    @Override
    public boolean pushLimit(int limit)
    {
        this.limit = limit;
        return true;
    }

    @Override
    public boolean isPartiallyPushed()
    {
        return true;
    }

    @Override
    public boolean supportCompletePushDown(Aggregation aggregation)
    {
        return countsRows(aggregation);
    }

    @Override
    public boolean pushAggregation(Aggregation aggregation)
    {
        if (!countsRows(aggregation) || pushed.length > 0 || !filter.isAll() || limit >= 0) {
            return false;
        }
        this.pushedCount = MetadataCountScan.exactRowCount(table);
        this.pushedCounts = aggregation.aggregateExpressions().length;
        return pushedCount.isPresent();
    }

    /** {@code count(*)} (any number of times) and no grouping. */
    private static boolean countsRows(Aggregation aggregation)
    {
        AggregateFunc[] functions = aggregation.aggregateExpressions();
        return aggregation.groupByExpressions().length == 0 && functions.length > 0 && java.util.Arrays.stream(functions).allMatch(CountStar.class::isInstance);
    }

    @Override
    public Scan build()
    {
        if (pushedCount.isPresent()) {
            return new MetadataCountScan(table, pushedCount.getAsLong(), pushedCounts);
        }
        return new MoraineScan(table, columns, metadata, filter, limit);
    }
}
