package io.moraine.duckdb.ext;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;

/**
 * A transaction's rows served by position as Arrow batches: a row's DuckDB row id is its position, and a position
 * holding null (a row the transaction deleted) is skipped.
 */
final class PositionalBatchSource<R>
        implements BatchSource
{
    /** Writes column {@code column} of {@code row} at {@code index} of {@code vector}. */
    @FunctionalInterface
    interface CellWriter<R>
    {
        void write(FieldVector vector, int index, R row, int column);
    }

    private final IntSupplier size;
    private final IntFunction<R> rowAt;
    private final int[] columns;
    private final boolean rowIds;
    private final CellWriter<R> cells;
    private final VectorSchemaRoot root;
    private int position;

    PositionalBatchSource(Schema schema, int[] columns, boolean rowIds, BufferAllocator allocator, IntSupplier size, IntFunction<R> rowAt, CellWriter<R> cells)
    {
        List<Field> fields = new ArrayList<>();
        for (int column : columns) {
            fields.add(schema.getFields().get(column));
        }
        if (rowIds) {
            fields.add(ServedTable.ROW_ID);
        }
        this.size = size;
        this.rowAt = rowAt;
        this.columns = columns.clone();
        this.rowIds = rowIds;
        this.cells = cells;
        this.root = VectorSchemaRoot.create(new Schema(fields), allocator);
    }

    @Override
    public VectorSchemaRoot next()
    {
        int rows = size.getAsInt();
        if (position >= rows) {
            return null;
        }
        root.allocateNew();
        int count = 0;
        while (count < CatalogTable.BATCH_ROWS && position < rows) {
            R row = rowAt.apply(position);
            if (row != null) {
                for (int i = 0; i < columns.length; i++) {
                    cells.write(root.getVector(i), count, row, columns[i]);
                }
                if (rowIds) {
                    ((BigIntVector) root.getVector(columns.length)).setSafe(count, position);
                }
                count++;
            }
            position++;
        }
        root.setRowCount(count);
        return root;
    }

    @Override
    public void close()
    {
        root.close();
    }
}
