package io.moraine.duckdb.ext;

import io.moraine.core.tx.InlineOperation;
import io.moraine.core.tx.InlinedInsertChunks;
import io.moraine.core.tx.StagedOperation;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one DuckDB transaction did to a {@code ducklake_inlined_data_<t>_<v>} table: created it (its user columns as
 * an Arrow schema), inserted rows (kept as DuckDB exported them: row_id, begin_snapshot, end_snapshot, user columns)
 * and ended rows ({@code SET end_snapshot}, by DuckLake's row_id). At commit these become inline operations.
 */
final class StagedInlinedRows
        implements AutoCloseable
{
    private final long tableId;
    private final long schemaVersion;
    private Optional<Schema> created = Optional.empty();
    private final List<VectorSchemaRoot> inserted = new ArrayList<>();
    private final Map<Long, Long> ended = new LinkedHashMap<>();
    private final List<InlineOperation.RowVersion> deleted = new ArrayList<>();
    private boolean dropped;

    StagedInlinedRows(long tableId, long schemaVersion)
    {
        this.tableId = tableId;
        this.schemaVersion = schemaVersion;
    }

    void create(Schema userSchema)
    {
        created = Optional.of(userSchema);
    }

    /** Takes ownership of {@code batch}. */
    void insert(VectorSchemaRoot batch)
    {
        inserted.add(batch);
    }

    void end(long rowId, long endSnapshot)
    {
        ended.put(rowId, endSnapshot);
    }

    /** DELETE of one row version (flush clean-up, snapshot expiry). */
    void delete(long rowId, long beginSnapshot)
    {
        deleted.add(new InlineOperation.RowVersion(rowId, beginSnapshot));
    }

    /** DROP TABLE of a superseded, emptied version, or of a version of a dropped table (after its snapshots expired). */
    void drop()
    {
        dropped = true;
    }

    List<VectorSchemaRoot> inserted()
    {
        return inserted;
    }

    /** The versions deleted and the rows ended so far, for a scan of the table in this transaction. */
    StagedVersionChanges versionChanges()
    {
        List<Long> deletedVersions = deleted.stream().map(version -> InlinedDataTable.versionRowId(version.rowId(), version.beginSnapshot())).toList();
        return StagedVersionChanges.of(deletedVersions, ended);
    }

    List<StagedOperation> operations()
    {
        List<StagedOperation> operations = new ArrayList<>();
        created.ifPresent(schema -> operations.add(new InlineOperation.RegisterSchema(tableId, schemaVersion, schema)));
        for (VectorSchemaRoot batch : inserted) {
            chunkRuns(batch, operations);
        }
        Map<Long, List<Long>> byEnd = new LinkedHashMap<>();
        ended.forEach((rowId, end) -> byEnd.computeIfAbsent(end, e -> new ArrayList<>()).add(rowId));
        byEnd.forEach((end, rowIds) -> operations.add(new InlineOperation.EndRows(tableId, rowIds, end)));
        if (!deleted.isEmpty()) {
            operations.add(new InlineOperation.ExpireVersions(tableId, schemaVersion, deleted));
        }
        if (dropped) {
            // A dropped table holds no rows: those of a dropped user table's versions go (a superseded version that
            // DuckLake drops is empty already). DuckLake deletes the registry row itself (DELETE FROM ducklake_inlined_data_tables).
            operations.add(new InlineOperation.Drain(tableId, schemaVersion, Long.MAX_VALUE, Optional.empty()));
            operations.add(new InlineOperation.Deregister(tableId, schemaVersion));
        }
        return operations;
    }

    /** One chunk per run of consecutive row ids sharing a begin_snapshot; an end_snapshot given at insert ends the row ({@link InlinedInsertChunks}). */
    private void chunkRuns(VectorSchemaRoot batch, List<StagedOperation> operations)
    {
        List<Field> userFields = batch.getSchema().getFields().subList(InlinedInsertChunks.SYSTEM_COLUMNS, batch.getSchema().getFields().size());
        InlinedInsertChunks.cut(tableId, schemaVersion, batch, userFields, operations::add, ended::putIfAbsent);
    }

    @Override
    public void close()
    {
        inserted.forEach(VectorSchemaRoot::close);
        inserted.clear();
    }
}
