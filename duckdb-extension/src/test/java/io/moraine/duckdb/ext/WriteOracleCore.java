package io.moraine.duckdb.ext;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.ColumnNode;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.ColumnDefinition;
import io.moraine.core.write.InlinedArrowSchema;
import io.moraine.core.write.NewTable;
import io.moraine.core.write.WriteTransaction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The core side of one step: its {@link WriteTransaction} and helpers that insert Java values as inlined rows into a
 * table that exists at the transaction's start or that the step created (given by its {@link NewTable}). Batches stay
 * open until the harness committed the transaction.
 */
final class WriteOracleCore
{
    private final MoraineCatalog catalog;
    private final WriteTransaction transaction;
    private final BufferAllocator allocator;
    private final List<VectorSchemaRoot> batches = new ArrayList<>();
    private final Map<String, List<TableColumn>> created = new HashMap<>();

    WriteOracleCore(MoraineCatalog catalog, WriteTransaction transaction, BufferAllocator allocator)
    {
        this.catalog = catalog;
        this.transaction = transaction;
        this.allocator = allocator;
    }

    WriteTransaction tx()
    {
        return transaction;
    }

    /** Creates the table and remembers its columns, for inserts in the same transaction. */
    WriteOracleCore createTable(NewTable table)
    {
        transaction.createTable(table);
        List<TableColumn> columns = new ArrayList<>();
        long[] nextId = {1};
        for (ColumnDefinition column : table.columns()) {
            columns.add(TableColumn.of(node(column, nextId, null)));
        }
        created.put(table.schema() + "." + table.name(), columns);
        return this;
    }

    /** One inlined insert (one statement's worth) of rows of Java values ({@link WriteOracleRows}). */
    WriteOracleCore insert(String schema, String table, List<List<Object>> rows)
    {
        VectorSchemaRoot batch = WriteOracleRows.of(schemaOf(schema, table), rows, allocator);
        batches.add(batch);
        transaction.insertInlined(schema, table, batch);
        return this;
    }

    /** {@link #insert} of rows given as arrays. */
    WriteOracleCore insertRows(String schema, String table, Object[]... rows)
    {
        return insert(schema, table, Arrays.stream(rows).map(Arrays::asList).toList());
    }

    private Schema schemaOf(String schema, String table)
    {
        List<TableColumn> columns = created.get(schema + "." + table);
        if (columns == null) {
            try (CatalogSnapshot head = catalog.at(transaction.readSnapshotId())) {
                columns = head.model().columns(head.model().table(schema, table).orElseThrow(
                        () -> new IllegalArgumentException("no table " + schema + "." + table + " at the transaction's snapshot"))).columns();
            }
        }
        return InlinedArrowSchema.of(columns);
    }

    /** The column as the core's type model sees it, ids made up (the Arrow schema needs names and types only). */
    private static ColumnNode node(ColumnDefinition column, long[] nextId, Long parent)
    {
        long id = nextId[0]++;
        Row row = Row.of(TableKind.COLUMN, id, 0L, null, 0L, id, column.name(), column.type(), null, null, column.nullable(), parent,
                column.children().isEmpty() ? "literal" : "", "duckdb");
        List<ColumnNode> children = column.children().stream().map(child -> node(child, nextId, id)).toList();
        return new ColumnNode(row, children);
    }

    void closeBatches()
    {
        batches.forEach(VectorSchemaRoot::close);
        batches.clear();
    }
}
