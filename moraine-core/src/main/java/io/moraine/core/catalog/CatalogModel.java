package io.moraine.core.catalog;

import io.moraine.core.row.ColumnNode;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.types.TableSchema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The lake as of one snapshot as typed values, what engines list and resolve instead of {@code ducklake_*} rows:
 * schemas, tables, views, and a table's {@link TableDefinition} (columns, partition and sort specs, tags). Reads
 * through its {@link CatalogSnapshot} on every call, so it lives as long as that snapshot is open.
 *
 * <p>Names match exactly as stored (case-sensitively), as the engines have always resolved them: Trino lower-cases
 * the names a query gives before asking, Spark passes them as written.
 */
public final class CatalogModel
{
    private final CatalogSnapshot snapshot;

    CatalogModel(CatalogSnapshot snapshot)
    {
        this.snapshot = requireNonNull(snapshot, "snapshot is null");
    }

    /** The snapshot this model is of. */
    public long snapshotId()
    {
        return snapshot.id();
    }

    public List<LakeSchema> schemas()
    {
        return snapshot.schemas().stream().map(LakeSchema::of).toList();
    }

    public Optional<LakeSchema> schema(String name)
    {
        return snapshot.schema(name).map(LakeSchema::of);
    }

    public Optional<LakeSchema> schema(long schemaId)
    {
        return snapshot.visible(TableKind.SCHEMA, schemaId).toList().stream().findFirst().map(LakeSchema::of);
    }

    /** Every table of every schema (a table whose schema is not visible, which only a damaged catalog has, is left out). */
    public List<LakeTable> tables()
    {
        Map<Long, LakeSchema> schemas = new LinkedHashMap<>();
        schemas().forEach(schema -> schemas.put(schema.id(), schema));
        List<LakeTable> tables = new ArrayList<>();
        for (Row row : snapshot.tables()) {
            LakeSchema schema = schemas.get(row.getLong("schema_id"));
            if (schema != null) {
                tables.add(LakeTable.of(row, schema));
            }
        }
        return tables;
    }

    public List<LakeTable> tables(LakeSchema schema)
    {
        return snapshot.tables(schema.id()).stream().map(row -> LakeTable.of(row, schema)).toList();
    }

    public Optional<LakeTable> table(String schemaName, String tableName)
    {
        Optional<LakeSchema> schema = schema(schemaName);
        if (schema.isEmpty()) {
            return Optional.empty();
        }
        // Stops at the first match, as a lookup by name on a lake of many tables should.
        try (RowCursor rows = snapshot.visible(TableKind.TABLE)) {
            while (rows.hasNext()) {
                Row row = rows.next();
                if (row.getLong("schema_id") == schema.get().id() && tableName.equals(row.getString("table_name"))) {
                    return Optional.of(LakeTable.of(row, schema.get()));
                }
            }
        }
        return Optional.empty();
    }

    /** The table with this id; empty when it is not visible (nor is its schema: a table is in the model with its schema). */
    public Optional<LakeTable> table(long tableId)
    {
        return snapshot.table(tableId).flatMap(row -> schema(row.getLong("schema_id")).map(schema -> LakeTable.of(row, schema)));
    }

    public List<LakeView> views(LakeSchema schema)
    {
        return snapshot.views(schema.id()).stream().map(row -> LakeView.of(row, schema)).toList();
    }

    public Optional<LakeView> view(String schemaName, String viewName)
    {
        return schema(schemaName).flatMap(schema -> views(schema).stream().filter(view -> view.name().equals(viewName)).findFirst());
    }

    /** The table's columns (top-level in column order, nested ones in their parents' types). */
    public TableSchema columns(LakeTable table)
    {
        return columns(table.id());
    }

    /** {@link #columns(LakeTable)} by table id: what a handle that kept only the id asks. */
    public TableSchema columns(long tableId)
    {
        return TableSchema.of(snapshot.columnTree(tableId));
    }

    /** The table's partition spec at the snapshot; empty when it is not partitioned. */
    public Optional<PartitionSpec> partitionSpec(LakeTable table)
    {
        return partitionSpec(table.id(), snapshot.columnTree(table.id()));
    }

    /** The table's sort order at the snapshot; empty when it is not sorted. */
    public Optional<SortSpec> sortSpec(LakeTable table)
    {
        return snapshot.sortInfo(table.id())
                .map(info -> SortSpec.of(info.getLong("sort_id"), snapshot.sortExpressions(table.id(), info.getLong("sort_id"))))
                .filter(spec -> !spec.keys().isEmpty());
    }

    /** The tags of a schema, table or view (by catalog id) at the snapshot; removed tags are not among them. */
    public Map<String, String> tags(long objectId)
    {
        Map<String, String> tags = new LinkedHashMap<>();
        snapshot.tags(objectId).stream()
                .filter(row -> row.getString("value") != null)
                .forEach(row -> tags.put(row.getString("key"), row.getString("value")));
        return tags;
    }

    /** The comments of the table's columns (top-level and nested) at the snapshot, by column id. */
    public Map<Long, String> columnComments(LakeTable table)
    {
        Map<Long, String> comments = new LinkedHashMap<>();
        snapshot.columnTags(table.id()).stream()
                .filter(row -> "comment".equals(row.getString("key")) && row.getString("value") != null)
                .forEach(row -> comments.put(row.getLong("column_id"), row.getString("value")));
        return comments;
    }

    /** The table with its columns, partition spec, sort spec and tags. */
    public TableDefinition definition(LakeTable table)
    {
        List<ColumnNode> columns = snapshot.columnTree(table.id());
        return new TableDefinition(table, TableSchema.of(columns), partitionSpec(table.id(), columns), sortSpec(table), tags(table.id()));
    }

    private Optional<PartitionSpec> partitionSpec(long tableId, List<ColumnNode> columns)
    {
        return snapshot.partitionInfo(tableId)
                .map(info -> PartitionSpec.of(info.getLong("partition_id"), snapshot.partitionColumns(tableId, info.getLong("partition_id")), columns))
                .filter(spec -> !spec.keys().isEmpty());
    }

    @Override
    public String toString()
    {
        return "CatalogModel[snapshot " + snapshot.id() + "]";
    }
}
