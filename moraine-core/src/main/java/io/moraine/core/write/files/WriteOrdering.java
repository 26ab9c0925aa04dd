package io.moraine.core.write.files;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.LakeTable;
import io.moraine.core.catalog.PartitionSpec;
import io.moraine.core.catalog.PartitionTransform;
import io.moraine.core.catalog.SortSpec;
import io.moraine.core.catalog.TableDefinition;
import io.moraine.core.types.TableColumn;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How an engine distributes and orders the rows of a write to a table so that each of its tasks writes one file per
 * partition with the rows in the table's sort order (as Iceberg's write distribution and ordering): rows clustered by
 * the partition keys (each key's column through its transform), and within a task ordered by those keys and then by
 * the table's sort order (unless {@code sort_on_insert} is off). A sort key the core cannot bind to a column (an expression other than a column reference, a
 * dialect other than {@code duckdb}, a column that is gone or of a type the core does not order) is left out: the
 * order is a preference of the layout, not a condition of the write, so it never refuses one.
 *
 * @param clustering the partition keys, in key order; empty for an unpartitioned table
 * @param ordering the partition keys (ascending, NULLs first) and then the sort order's keys
 */
public record WriteOrdering(List<PartitionKey> clustering, List<OrderKey> ordering)
{
    public WriteOrdering
    {
        clustering = List.copyOf(clustering);
        ordering = List.copyOf(ordering);
    }

    public static final WriteOrdering NONE = new WriteOrdering(List.of(), List.of());

    /** One key of the order: a partition key or a column of the sort order. */
    public sealed interface OrderKey
            permits PartitionKey, ColumnKey {}

    /** A partition key: the top-level column {@code column} (DuckLake type {@code columnType}) through {@code transform}. */
    public record PartitionKey(String column, String columnType, PartitionTransform transform)
            implements OrderKey {}

    /** A sort key on the top-level column {@code column}. */
    public record ColumnKey(String column, boolean descending, boolean nullsFirst)
            implements OrderKey {}

    public boolean isEmpty()
    {
        return clustering.isEmpty() && ordering.isEmpty();
    }

    /**
     * The ordering of writes to {@code table} at {@code snapshot}: its partition spec, and its sort order unless the
     * lake option {@code sort_on_insert} (table, schema or global scope) is {@code false}, as DuckLake's inserts
     * ({@code DuckLakeCatalog::PlanInsert}) sort only then.
     */
    public static WriteOrdering at(CatalogSnapshot snapshot, LakeTable table)
    {
        boolean sortOnInsert = snapshot.option("sort_on_insert", table.schema().id(), table.id())
                .map(value -> !value.strip().equalsIgnoreCase("false")).orElse(true);
        return of(snapshot.model().definition(table), sortOnInsert);
    }

    /** The ordering of writes to {@code table} by its partition spec and, when {@code sortOnInsert}, its sort order. */
    public static WriteOrdering of(TableDefinition table, boolean sortOnInsert)
    {
        List<PartitionKey> clustering = new ArrayList<>();
        for (PartitionSpec.Key key : table.partitionSpec().map(PartitionSpec::keys).orElse(List.of())) {
            // A partition key is a top-level column: DuckLake partitions by those only.
            table.columns().column(key.columnId())
                    .ifPresent(column -> clustering.add(new PartitionKey(column.name(), key.columnType(), key.transform())));
        }
        List<OrderKey> ordering = new ArrayList<>(clustering);
        for (SortSpec.Key key : table.sortSpec().filter(spec -> sortOnInsert).map(SortSpec::keys).orElse(List.of())) {
            if (!key.dialect().equals("duckdb")) {
                continue;
            }
            key.columnReference().flatMap(name -> column(table.columns().columns(), name))
                    .filter(column -> SortSpec.orderable(column.type()))
                    .ifPresent(column -> ordering.add(new ColumnKey(column.name(), key.descending(), key.nullsFirst())));
        }
        return new WriteOrdering(clustering, ordering);
    }

    /** The top-level column a sort key names: exactly, else ignoring case (as DuckDB binds identifiers). */
    private static Optional<TableColumn> column(List<TableColumn> columns, String name)
    {
        return columns.stream().filter(column -> column.name().equals(name)).findFirst()
                .or(() -> columns.stream().filter(column -> column.name().equalsIgnoreCase(name)).findFirst());
    }
}
