package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.inline.read.InlinedTables;
import io.moraine.core.scan.InlinedFileDeletes;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

/** {@code ducklake_inlined_delete_<t>}: file_id, row_id (the position in the file) and begin_snapshot per delete. */
final class InlinedDeleteTable
        implements ServedTable
{
    private static final Schema SCHEMA = new Schema(List.of(
            Field.nullable("file_id", new ArrowType.Int(64, true)),
            Field.nullable("row_id", new ArrowType.Int(64, true)),
            Field.nullable("begin_snapshot", new ArrowType.Int(64, true))));

    private final MoraineCatalog catalog;
    private final InlinedTables.DeleteTable table;

    // False while the table is created by a transaction that has not committed.
    private volatile boolean stored;

    /** A table the store holds. */
    InlinedDeleteTable(MoraineCatalog catalog, InlinedTables.DeleteTable table)
    {
        this(catalog, table, true);
    }

    private InlinedDeleteTable(MoraineCatalog catalog, InlinedTables.DeleteTable table, boolean stored)
    {
        this.catalog = catalog;
        this.table = table;
        this.stored = stored;
    }

    /** A table a transaction creates. */
    static InlinedDeleteTable created(MoraineCatalog catalog, InlinedTables.DeleteTable table)
    {
        return new InlinedDeleteTable(catalog, table, false);
    }

    void markStored()
    {
        stored = true;
    }

    boolean isStored()
    {
        return stored;
    }

    @Override
    public String name()
    {
        return table.tableName();
    }

    @Override
    public Schema schema()
    {
        return SCHEMA;
    }

    long tableId()
    {
        return table.tableId();
    }

    /** Every inlined file delete the store holds for the table: (file_id, row_id, begin_snapshot), by file and position. */
    List<long[]> committedRows(io.moraine.core.store.KeyValueReader reader)
    {
        Map<Long, TreeMap<Long, Long>> entries = InlinedFileDeletes.entriesBetween(reader, table.tableId(), Long.MIN_VALUE, Long.MAX_VALUE);
        List<long[]> rows = new ArrayList<>();
        new TreeMap<>(entries).forEach((file, positions) -> positions.forEach((position, snapshot) -> rows.add(new long[] {file, position, snapshot})));
        return rows;
    }

    /** The rows as {@code transaction} sees them (a row's DuckDB row id is its position there), or as committed. */
    @Override
    public BatchSource open(AttachTransaction transaction, int[] columns, boolean rowIds, ScanFilter filter, BufferAllocator allocator)
    {
        StagedFileDeletes rows = transaction != null ? transaction.fileDeletes(this) : new StagedFileDeletes(table.tableId(), committedRows(catalog.store().latest()));
        java.util.function.IntFunction<long[]> rowAt = filter.isEmpty() ? rows::at : position -> {
            long[] row = rows.at(position);
            return row != null && filter.test(column -> row[column]) ? row : null;
        };
        return new PositionalBatchSource<long[]>(SCHEMA, columns, rowIds, allocator, rows::size, rowAt, IntUnaryOperator.identity(),
                (vector, column) -> (index, row) -> ((BigIntVector) vector).setSafe(index, row[column]));
    }
}
