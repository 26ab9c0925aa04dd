package io.moraine.core.tx;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.inline.InlineArrow;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * How inserted inlined rows become insert chunks, written once for the importer and the DuckDB extension: a batch laid
 * out as DuckLake's {@code ducklake_inlined_data_<t>_<v>} (row_id, begin_snapshot, end_snapshot, then the user columns)
 * is cut into one chunk per run of consecutive row ids sharing a begin_snapshot, each chunk the run's user columns
 * encoded by {@link InlineArrow#encodeChunk}; an end_snapshot given at insert ends its row.
 */
public final class InlinedInsertChunks
{
    /** row_id, begin_snapshot, end_snapshot. */
    public static final int SYSTEM_COLUMNS = 3;

    /** A row ended at insert: its row id and end_snapshot. */
    @FunctionalInterface
    public interface EndedRow
    {
        void ended(long rowId, long endSnapshot);
    }

    private InlinedInsertChunks() {}

    /**
     * Cuts {@code batch} of table {@code tableId}'s schema version {@code schemaVersion} into chunks handed to
     * {@code chunks}, in row order, and each row with an end_snapshot to {@code ended}. The user columns are encoded
     * under {@code userFields} (DuckLake's fields of the version, which may name an extension type the vectors' own
     * fields lack); a row without row_id or begin_snapshot is refused. The batch's vectors are only borrowed.
     */
    public static void cut(long tableId, long schemaVersion, VectorSchemaRoot batch, List<Field> userFields,
            Consumer<InlineOperation.InsertChunk> chunks, EndedRow ended)
    {
        BigIntVector rowIds = (BigIntVector) batch.getVector(0);
        BigIntVector begins = (BigIntVector) batch.getVector(1);
        BigIntVector ends = (BigIntVector) batch.getVector(2);
        int rows = batch.getRowCount();
        List<FieldVector> users = batch.getFieldVectors().subList(SYSTEM_COLUMNS, batch.getFieldVectors().size());
        // `userColumns` only borrows the batch's vectors: closing it would free them under the batch, so only slices are closed.
        VectorSchemaRoot userColumns = new VectorSchemaRoot(userFields, new ArrayList<>(users), rows);
        int runStart = 0;
        for (int row = 0; row <= rows; row++) {
            if (row < rows && (rowIds.isNull(row) || begins.isNull(row))) {
                throw new InvalidArgumentException("INSERT into ducklake_inlined_data_" + tableId + "_" + schemaVersion
                        + " needs row_id and begin_snapshot on every row");
            }
            boolean runEnds = row == rows || begins.get(row) != begins.get(runStart) || rowIds.get(row) != rowIds.get(runStart) + (row - runStart);
            if (runEnds && row > runStart) {
                try (VectorSchemaRoot run = userColumns.slice(runStart, row - runStart)) {
                    byte[] body = InlineArrow.encodeChunk(rowIds.get(runStart), run);
                    chunks.accept(new InlineOperation.InsertChunk(tableId, schemaVersion, begins.get(runStart), rowIds.get(runStart), row - runStart, body));
                }
                runStart = row;
            }
        }
        for (int row = 0; row < rows; row++) {
            if (!ends.isNull(row)) {
                ended.ended(rowIds.get(row), ends.get(row));
            }
        }
    }

}
