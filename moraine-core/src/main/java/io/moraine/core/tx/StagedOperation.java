package io.moraine.core.tx;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * One typed operation staged in a {@link StagedTransaction}: the Java form of {@code moraine_tx_stage}. Row operations
 * act on the {@code ducklake_*} tables, whose rows are addressed by their key cells (the values of
 * {@link TableKind#keyColumnIndexes()} in key order; a row with a duplicate number by its {@link Row#keyCells()});
 * inline operations act on DuckLake's inlined-data tables, which
 * moraine keeps in the inline subspace (RFC 0005).
 */
public sealed interface StagedOperation
        permits StagedOperation.RowOperation, InlineOperation
{
    /** An operation on one row of a {@code ducklake_*} table. */
    sealed interface RowOperation
            extends StagedOperation
            permits Insert, Delete, EndRow, Update
    {
        TableKind kind();
    }

    /** Inserts a row exactly as authored. A versioned row whose end_snapshot is set goes straight to history. */
    record Insert(Row row)
            implements RowOperation
    {
        public Insert
        {
            requireNonNull(row, "row is null");
        }

        @Override
        public TableKind kind()
        {
            return row.kind();
        }
    }

    /** Physically deletes a row (current or history). Deleting a row that does not exist changes nothing, as in SQL. */
    record Delete(TableKind kind, List<Object> key)
            implements RowOperation
    {
        public Delete
        {
            requireNonNull(kind, "kind is null");
            key = normalizeKey(key);
        }
    }

    /**
     * Sets end_snapshot on a current row of a versioned kind: the one interpreted convention, which moves the row
     * from current to history. Ending a row that is not current changes nothing, as DuckLake's
     * {@code ... WHERE end_snapshot IS NULL} would.
     */
    record EndRow(TableKind kind, List<Object> key, long endSnapshot)
            implements RowOperation
    {
        public EndRow
        {
            requireNonNull(kind, "kind is null");
            key = normalizeKey(key);
        }
    }

    /**
     * Updates columns of an existing row in place (table stats, metadata options, a compaction's begin_snapshot).
     * Changing a key column or end_snapshot this way is refused: use {@link Delete} + {@link Insert} or
     * {@link EndRow}. {@code readImage} is the row as the caller read it at its read snapshot, when known; it lets
     * a data-only commit that lost the race for the head be rebased (counters are re-applied as deltas).
     */
    record Update(TableKind kind, List<Object> key, Map<String, Object> changes, java.util.Optional<Row> readImage)
            implements RowOperation
    {
        public Update
        {
            requireNonNull(kind, "kind is null");
            key = normalizeKey(key);
            changes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(changes));
            requireNonNull(readImage, "readImage is null");
        }
    }

    /** Key cells as stored: Integer ids widened to Long. */
    private static List<Object> normalizeKey(List<Object> key)
    {
        requireNonNull(key, "key is null");
        List<Object> copy = new java.util.ArrayList<>(key.size());
        for (Object cell : key) {
            copy.add(cell instanceof Integer integer ? integer.longValue() : cell);
        }
        return java.util.Collections.unmodifiableList(copy);
    }
}
