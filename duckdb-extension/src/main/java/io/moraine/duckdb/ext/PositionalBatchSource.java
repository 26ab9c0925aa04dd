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
import java.util.function.IntUnaryOperator;

/**
 * A transaction's rows served by position as Arrow batches: a row's DuckDB row id is its position, and a position
 * holding null (a row the transaction deleted, or one a pushed filter leaves out) is skipped, as is every position
 * the table knows no row to serve is at (see the {@code candidates} of the constructor).
 */
final class PositionalBatchSource<R>
        implements BatchSource
{
    /** Writes one column of {@code row} at {@code index} of the vector it was made for. */
    @FunctionalInterface
    interface ColumnWriter<R>
    {
        void write(int index, R row);
    }

    /** Makes the writer of column {@code column} (of the full schema) into {@code vector}, once per scan. */
    @FunctionalInterface
    interface ColumnWriters<R>
    {
        ColumnWriter<R> writer(FieldVector vector, int column);
    }

    private final IntSupplier size;
    private final IntFunction<R> rowAt;
    private final IntUnaryOperator candidates;
    private final List<ColumnWriter<R>> writers = new ArrayList<>();
    private final BigIntVector rowIds;
    private final VectorSchemaRoot root;
    private int position;

    /** {@code candidates}: the next position at or after a given one that may hold a row to serve. */
    PositionalBatchSource(Schema schema, int[] columns, boolean rowIds, BufferAllocator allocator, IntSupplier size, IntFunction<R> rowAt,
            IntUnaryOperator candidates, ColumnWriters<R> writers)
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
        this.candidates = candidates;
        this.root = VectorSchemaRoot.create(new Schema(fields), allocator);
        for (int i = 0; i < columns.length; i++) {
            this.writers.add(writers.writer(root.getVector(i), columns[i]));
        }
        this.rowIds = rowIds ? (BigIntVector) root.getVector(columns.length) : null;
    }

    @Override
    public VectorSchemaRoot next()
    {
        int rows = size.getAsInt();
        position = candidates.applyAsInt(position);
        if (position >= rows) {
            return null;
        }
        root.allocateNew();
        int count = 0;
        while (count < CatalogTable.BATCH_ROWS && (position = candidates.applyAsInt(position)) < rows) {
            R row = rowAt.apply(position);
            if (row != null) {
                for (ColumnWriter<R> writer : writers) {
                    writer.write(count, row);
                }
                if (rowIds != null) {
                    rowIds.setSafe(count, position);
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
