package io.moraine.spark;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.types.TableColumn;
import io.moraine.inline.InlineReader;
import io.moraine.inline.InlinedRowsReader;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Reads a scan's inlined rows on the driver with the inline reader (columns found by column id in each schema
 * version) and writes them, with their metadata columns, as an Arrow IPC stream in the scan's output schema — Spark's
 * own Arrow layout, so that executors wrap the vectors in {@code ArrowColumnVector}s as they are.
 */
final class InlinedRowsEncoder
{
    private InlinedRowsEncoder() {}

    static InlinedRowsPartition encode(CatalogSnapshot snapshot, InlinedRowsTask task, List<TableColumn> columns, StructType output)
    {
        long rows = 0;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (BufferAllocator allocator = ArrowUtils.rootAllocator().newChildAllocator("moraine inlined rows of table " + task.tableId(), 0, Long.MAX_VALUE);
                InlinedRowsReader reader = InlinedRowsReader.open(snapshot, task, columns, InlineReader.DEFAULT_WINDOW_ROWS, allocator);
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowUtils.toArrowSchema(output, "UTC", true, false), allocator);
                ArrowStreamWriter stream = new ArrowStreamWriter(root, null, bytes)) {
            ArrowWriter writer = ArrowWriter.create(root);
            stream.start();
            int width = output.fields().length;
            while (reader.hasNext()) {
                InlinedRowsReader.Batch batch = reader.next();
                for (int row = 0; row < batch.rows(); row++) {
                    Object[] values = new Object[width];
                    for (int i = 0; i < columns.size(); i++) {
                        TableColumn column = columns.get(i);
                        FieldVector vector = batch.vector(i);
                        values[i] = vector == null
                                ? CatalystValues.toCatalyst(output.fields()[i].dataType(), column.initialDefaultValue().orElse(null))
                                : InlinedValues.value(column, output.fields()[i].dataType(), batch.writtenAs(i), vector, row);
                    }
                    for (int i = columns.size(); i < width; i++) {
                        values[i] = switch (MetadataColumns.byName(output.fields()[i].name()).orElseThrow().kind()) {
                            case FILE, POS -> null;
                            case ROW_ID -> batch.rowIds().get(row);
                            case SNAPSHOT_ID -> batch.beginSnapshots().get(row);
                        };
                    }
                    writer.write(new GenericInternalRow(values));
                }
                writer.finish();
                stream.writeBatch();
                writer.reset();
                rows += batch.rows();
            }
            stream.end();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new InlinedRowsPartition(bytes.toByteArray(), rows);
    }
}
