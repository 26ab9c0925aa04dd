package io.moraine.core.tx;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.InvalidArgumentException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A staged-row transaction, the Java form of {@code moraine_tx_begin / stage / commit / rollback}: it begins at the
 * snapshot its caller read, stages typed row operations without touching the store, and commits them as exactly
 * one durable SlateDB batch. Not thread-safe; use one per writer thread.
 */
public final class StagedTransaction
{
    private final TransactionCommitter committer;
    private final long readSnapshotId;
    private final List<StagedOperation> operations = new ArrayList<>();
    private State state = State.OPEN;

    private enum State
    {
        OPEN, COMMITTED, ROLLED_BACK, FAILED
    }

    StagedTransaction(TransactionCommitter committer, long readSnapshotId)
    {
        this.committer = requireNonNull(committer, "committer is null");
        this.readSnapshotId = readSnapshotId;
    }

    /** The snapshot this transaction's rows were authored against. */
    public long readSnapshotId()
    {
        return readSnapshotId;
    }

    public StagedTransaction insert(Row row)
    {
        return stage(new StagedOperation.Insert(row));
    }

    /**
     * Physically deletes the row whose key cells (in {@link TableKind#keyColumnIndexes()} order) are {@code key}; a
     * row with a duplicate number is addressed by its {@link Row#keyCells()}.
     */
    public StagedTransaction delete(TableKind kind, Object... key)
    {
        return stage(new StagedOperation.Delete(kind, java.util.Arrays.asList(key)));
    }

    /** Sets end_snapshot of the current row with these key cells, moving it to history. */
    public StagedTransaction endRow(TableKind kind, long endSnapshot, Object... key)
    {
        return stage(new StagedOperation.EndRow(kind, java.util.Arrays.asList(key), endSnapshot));
    }

    /** Updates non-key columns of the row with these key cells in place. */
    public StagedTransaction update(TableKind kind, Map<String, ?> changes, Object... key)
    {
        return stage(new StagedOperation.Update(kind, java.util.Arrays.asList(key), new java.util.LinkedHashMap<>(changes), java.util.Optional.empty()));
    }

    /**
     * Updates non-key columns of {@code readImage}, the row as this transaction read it, in place. Knowing the read
     * image lets a data-only commit be rebased onto a newer head.
     */
    public StagedTransaction update(Row readImage, Map<String, ?> changes)
    {
        return stage(new StagedOperation.Update(readImage.kind(), readImage.keyCells(), new java.util.LinkedHashMap<>(changes), java.util.Optional.of(readImage)));
    }

    /**
     * CREATE TABLE ducklake_inlined_data_&lt;t&gt;_&lt;v&gt; with its registration: the registry row and the version's
     * user columns as an Arrow schema.
     */
    public StagedTransaction registerInlinedTable(long tableId, long schemaVersion, org.apache.arrow.vector.types.pojo.Schema schema)
    {
        insert(Row.of(TableKind.INLINED_DATA_TABLES, tableId, "ducklake_inlined_data_" + tableId + "_" + schemaVersion, schemaVersion));
        return stage(new InlineOperation.RegisterSchema(tableId, schemaVersion, schema));
    }

    /**
     * INSERT INTO ducklake_inlined_data_&lt;t&gt;_&lt;v&gt;: the rows of {@code batch} (the version's user columns) get row
     * ids {@code rowIdStart, rowIdStart + 1, ...} and begin at {@code beginSnapshot}. The batch is encoded now; the
     * caller keeps ownership of it.
     */
    public StagedTransaction insertInlined(long tableId, long schemaVersion, long beginSnapshot, long rowIdStart,
            org.apache.arrow.vector.VectorSchemaRoot batch)
    {
        byte[] body = io.moraine.core.inline.InlineArrow.encodeChunk(rowIdStart, batch);
        return stage(new InlineOperation.InsertChunk(tableId, schemaVersion, beginSnapshot, rowIdStart, batch.getRowCount(), body));
    }

    /** UPDATE ducklake_inlined_data_... SET end_snapshot = endSnapshot WHERE row_id IN rowIds. */
    public StagedTransaction endInlinedRows(long tableId, List<Long> rowIds, long endSnapshot)
    {
        return stage(new InlineOperation.EndRows(tableId, rowIds, endSnapshot));
    }

    /** INSERT INTO ducklake_inlined_delete_&lt;t&gt;: deletes Parquet rows by position. */
    public StagedTransaction deleteInlinedFileRows(long tableId, long dataFileId, List<Long> positions, long beginSnapshot)
    {
        return stage(new InlineOperation.DeleteFileRows(tableId, dataFileId, positions, beginSnapshot));
    }

    /** DELETE FROM ducklake_inlined_delete_&lt;t&gt; naming these (file, position) records, which must exist. */
    public StagedTransaction removeInlinedFileDeletes(long tableId, long dataFileId, List<Long> positions)
    {
        return stage(new InlineOperation.RemoveFileRowDeletes(tableId, dataFileId, positions));
    }

    /** The flush clean-up of one inlined table: DELETE ... WHERE begin_snapshot &lt;= flushSnapshot. */
    public StagedTransaction drainInlined(long tableId, long schemaVersion, long flushSnapshot)
    {
        return stage(new InlineOperation.Drain(tableId, schemaVersion, flushSnapshot, java.util.Optional.empty()));
    }

    /**
     * The flush clean-up, checked: the commit fails with {@link io.moraine.core.error.CorruptionException} (writing
     * nothing) unless the drained chunks hold exactly {@code flushedRowIds}, the row ids the flush wrote to its files.
     */
    public StagedTransaction drainInlined(long tableId, long schemaVersion, long flushSnapshot, io.moraine.core.inline.RowIdMultiset flushedRowIds)
    {
        return stage(new InlineOperation.Drain(tableId, schemaVersion, flushSnapshot, java.util.Optional.of(flushedRowIds)));
    }

    /** Snapshot expiry's selective DELETE of inlined row versions, each named by (row_id, begin_snapshot). */
    public StagedTransaction expireInlinedVersions(long tableId, long schemaVersion, List<InlineOperation.RowVersion> versions)
    {
        return stage(new InlineOperation.ExpireVersions(tableId, schemaVersion, versions));
    }

    /** DROP of a superseded, emptied inlined table, with the removal of its registry row. */
    public StagedTransaction deregisterInlinedTable(long tableId, long schemaVersion)
    {
        delete(TableKind.INLINED_DATA_TABLES, tableId, schemaVersion);
        return stage(new InlineOperation.Deregister(tableId, schemaVersion));
    }

    /** DROP of a dropped table's inlined delete table: its file deletes go with it. */
    public StagedTransaction dropFileDeleteTable(long tableId)
    {
        return stage(new InlineOperation.DropFileDeleteTable(tableId));
    }

    /**
     * The DROP TABLE cascade over the inline subspace: every inline record of the table. A commit that deletes a
     * table's last ducklake_table row (DuckLake's expiry of a dropped table) does this by itself.
     */
    public StagedTransaction dropInlined(long tableId)
    {
        return stage(new InlineOperation.DropTable(tableId));
    }

    public StagedTransaction stage(StagedOperation operation)
    {
        requireOpen("stage");
        operations.add(requireNonNull(operation, "operation is null"));
        return this;
    }

    public List<StagedOperation> operations()
    {
        return List.copyOf(operations);
    }

    /**
     * Commits every staged operation as one durable batch and returns the snapshot id that landed (the unchanged
     * head for a commit that adds no snapshot, such as expiry clean-up).
     */
    public long commit()
    {
        return commit(CommitPolicy.REBASE);
    }

    /** As {@link #commit()}, with {@code policy} deciding what happens when the head has moved past the read snapshot. */
    public long commit(CommitPolicy policy)
    {
        requireOpen("commit");
        try {
            long landed = committer.commit(readSnapshotId, operations, policy);
            state = State.COMMITTED;
            return landed;
        }
        catch (RuntimeException e) {
            state = State.FAILED;
            throw e;
        }
    }

    /** Discards the staged operations; nothing was written, so nothing is undone. */
    public void rollback()
    {
        requireOpen("roll back");
        operations.clear();
        state = State.ROLLED_BACK;
    }

    private void requireOpen(String action)
    {
        if (state != State.OPEN) {
            throw new InvalidArgumentException("cannot " + action + " a transaction that was already "
                    + switch (state) {
                        case COMMITTED -> "committed";
                        case ROLLED_BACK -> "rolled back";
                        default -> "refused at commit";
                    } + "; begin a new one");
        }
    }
}
