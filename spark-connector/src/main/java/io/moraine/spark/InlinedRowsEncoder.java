package io.moraine.spark;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.changes.InlinedChangesTask;
import io.moraine.core.inline.read.InlineReader;
import io.moraine.core.inline.read.InlinedBatchSource;
import io.moraine.core.inline.read.InlinedRowsPiece;
import io.moraine.core.inline.read.InlinedRowsPieces;
import io.moraine.core.inline.read.InlinedRowsReader;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.types.TableColumn;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Turns inlined rows (columns found by column id in each schema version) into Spark's Arrow layout of the scan's output
 * schema, with the columns computed per row after the table's (metadata or change-feed columns), so that they are
 * wrapped in {@code ArrowColumnVector}s as they are. A scan's rows are read on the driver into the inline reader's
 * bounded pieces ({@link #pieces}), one input partition each, and converted on the executor
 * ({@link InlinedPieceBatchReader}); a change feed's side is converted on the driver into one Arrow IPC stream
 * ({@link #encodeChanges}).
 */
final class InlinedRowsEncoder
{
    /** The value of output column {@code field} (after the table's columns) for row {@code row} of a batch. */
    @FunctionalInterface
    interface ExtraValues
    {
        Object value(InlinedRowsReader.Batch batch, int row, String field);
    }

    /** A scan's metadata columns: an inlined row has no file or position; its row id, and its begin snapshot as its snapshot. */
    static final ExtraValues SCAN_METADATA = (batch, row, field) -> switch (MetadataColumns.byName(field).orElseThrow().kind()) {
        case FILE, FILE_ID, POS -> null;
        case ROW_ID -> batch.rowIds().get(row);
        case SNAPSHOT_ID -> batch.beginSnapshots().get(row);
    };

    private InlinedRowsEncoder() {}

    /**
     * A scan's inlined rows at its snapshot, read on the driver into bounded pieces ({@link InlinedRowsPieces.Bounds#DEFAULT}):
     * one partition each, in the inline reader's layout, converted to {@code output} on the executor.
     */
    static List<InlinedPiecePartition> pieces(CatalogSnapshot snapshot, InlinedRowsTask task, List<TableColumn> columns, StructType output)
    {
        List<InlinedPiecePartition> partitions = new ArrayList<>();
        try (BufferAllocator allocator = ArrowUtils.rootAllocator().newChildAllocator("moraine inlined rows of table " + task.tableId(), 0, Long.MAX_VALUE);
                InlinedRowsPieces pieces = InlinedRowsPieces.open(snapshot, task, columns, InlinedRowsPieces.Bounds.DEFAULT, allocator)) {
            while (pieces.hasNext()) {
                InlinedRowsPiece piece = pieces.next();
                if (piece.rows() > 0) {
                    partitions.add(new InlinedPiecePartition(piece.arrowStream(), piece.rows(), output));
                }
            }
        }
        return partitions;
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
            while (reader.hasNext()) {
                rows += write(reader.next(), columns, output, extra, writer);
                writer.finish();
                stream.writeBatch();
                writer.reset();
            }
            stream.end();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new InlinedRowsPartition(bytes.toByteArray(), rows);
    }

    /**
     * Writes the rows of one batch (of an {@link InlinedBatchSource} opened with {@code columns}) to {@code writer}, in
     * {@code output}'s layout: the table's columns, then the extra ones. Returns how many.
     */
    static int write(InlinedRowsReader.Batch batch, List<TableColumn> columns, StructType output, ExtraValues extra, ArrowWriter writer)
    {
        int width = output.fields().length;
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
        return batch.rows();
    }
}
