package io.moraine.spark;

import io.moraine.core.types.TableColumn;
import io.moraine.core.write.InlinedArrowSchema;
import io.moraine.core.write.InlinedStreams;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * A small append's rows as they travel from a task to the driver: an Arrow IPC stream in {@link InlinedArrowSchema}'s
 * types (the types the core inlines), written and read with Spark's own Arrow writer and column vectors.
 */
final class SparkInlinedRows
{
    private SparkInlinedRows() {}

    /** {@code rows} (in the table's columns) as one Arrow IPC stream. */
    static byte[] encode(List<InternalRow> rows, List<TableColumn> columns)
    {
        try (BufferAllocator allocator = new RootAllocator(); VectorSchemaRoot root = VectorSchemaRoot.create(InlinedArrowSchema.of(columns), allocator)) {
            fill(root, rows.iterator());
            return InlinedStreams.encode(root);
        }
    }

    /** Hands each row of an {@link #encode}d stream to {@code consumer}; a row is valid only during its call. */
    static void forEachRow(byte[] stream, BufferAllocator allocator, Consumer<InternalRow> consumer)
    {
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(stream), allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            while (reader.loadNextBatch()) {
                ColumnarBatch batch = new ColumnarBatch(root.getFieldVectors().stream().map(ArrowColumnVector::new).toArray(ColumnVector[]::new));
                batch.setNumRows(root.getRowCount());
                batch.rowIterator().forEachRemaining(consumer);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot decode a task's rows to inline: " + e.getMessage(), e);
        }
    }

    /** Writes {@code rows} into {@code root} (built in {@link InlinedArrowSchema}'s types), setting its row count. */
    static void fill(VectorSchemaRoot root, Iterator<InternalRow> rows)
    {
        ArrowWriter writer = ArrowWriter.create(root);
        rows.forEachRemaining(writer::write);
        writer.finish();
    }
}
