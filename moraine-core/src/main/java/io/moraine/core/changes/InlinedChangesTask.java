package io.moraine.core.changes;

import java.util.List;

/**
 * One side of a table's inlined rows in {@code [fromSnapshot, toSnapshot]} (reference §6.1 item 4, §6.2 item 4): rows
 * whose {@code begin_snapshot} (insertions) or {@code end_snapshot} (deletions) is in the range, each attributed to
 * that snapshot, its {@code row_id} its rowid. Read by the inline reader ({@code InlinedRowsReader.openChanges}).
 *
 * @param endSnapshotId the feed's end snapshot, whose view the rows are read through
 * @param plannedHead the store's newest snapshot when the feed was planned (a flush after it moved the rows into files
 *         the plan lacks: the reader refuses)
 * @param schemaVersions the schema versions the table has inlined rows under
 */
public record InlinedChangesTask(long tableId, ChangeKind kind, long endSnapshotId, long plannedHead, long fromSnapshot, long toSnapshot,
        List<Long> schemaVersions)
        implements ChangeTask
{
    public InlinedChangesTask
    {
        schemaVersions = List.copyOf(schemaVersions);
    }
}
