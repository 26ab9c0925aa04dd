package io.moraine.spark;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.changes.InlinedChangesTask;
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
import org.apache.spark.unsafe.types.UTF8String;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads inlined rows on the driver with the inline reader (columns found by column id in each schema version) and
 * writes them, with the columns computed per row after the table's (metadata or change-feed columns), as an Arrow IPC
 * stream in the scan's output schema — Spark's own Arrow layout, so that executors wrap the vectors in
 * {@code ArrowColumnVector}s as they are.
 */
final class InlinedRowsEncoder
{
    /** The value of output column {@code field} (after the table's columns) for row {@code row} of a batch. */
    @FunctionalInterface
    private interface ExtraValues
    {
        Object value(InlinedRowsReader.Batch batch, int row, String field);
    }

    private InlinedRowsEncoder() {}

    /** A scan's inlined rows at its snapshot, with their metadata columns. */
    static InlinedRowsPartition encode(CatalogSnapshot snapshot, InlinedRowsTask task, List<TableColumn> columns, StructType output)
    {
        return encode(allocator -> InlinedRowsReader.open(snapshot, task, columns, InlineReader.DEFAULT_WINDOW_ROWS, allocator), task.tableId(), columns,
                output, (batch, row, field) -> switch (MetadataColumns.byName(field).orElseThrow().kind()) {
                    case FILE, POS -> null;
                    case ROW_ID -> batch.rowIds().get(row);
                    case SNAPSHOT_ID -> batch.beginSnapshots().get(row);
                });
    }

    /** One side of a change feed's inlined rows, with the change-feed columns ({@code commitTimes}: micros by snapshot). */
    static InlinedRowsPartition encodeChanges(CatalogSnapshot end, InlinedChangesTask task, List<TableColumn> columns, StructType output,
            Map<Long, Long> commitTimes)
    {
        boolean insertion = task.kind() == io.moraine.core.changes.ChangeKind.INSERTION;
        UTF8String changeType = UTF8String.fromString(insertion ? "insert" : "delete");
        return encode(allocator -> InlinedRowsReader.openChanges(end, task, columns, InlineReader.DEFAULT_WINDOW_ROWS, allocator), task.tableId(), columns,
                output, (batch, row, field) -> {
                    long commit = insertion ? batch.beginSnapshots().get(row) : batch.endSnapshots().get(row);
                    return switch (field) {
                        case ChangelogColumns.CHANGE_TYPE -> changeType;
                        case ChangelogColumns.COMMIT_VERSION -> commit;
                        case ChangelogColumns.COMMIT_TIMESTAMP -> commitTimes.get(commit);
                        case ChangelogColumns.ROW_ID -> batch.rowIds().get(row);
                        case ChangelogColumns.ROW_VERSION -> batch.beginSnapshots().get(row);
                        default -> throw new IllegalArgumentException("not a change-feed column: " + field);
                    };
                });
    }

    private static InlinedRowsPartition encode(Function<BufferAllocator, InlinedRowsReader> open, long tableId, List<TableColumn> columns, StructType output,
            ExtraValues extra)
    {
        long rows = 0;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (BufferAllocator allocator = ArrowUtils.rootAllocator().newChildAllocator("moraine inlined rows of table " + tableId, 0, Long.MAX_VALUE);
                InlinedRowsReader reader = open.apply(allocator);
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
                        values[i] = extra.value(batch, row, output.fields()[i].name());
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
