package io.moraine.cli.cat;

import io.moraine.core.changes.ChangeKind;

/** Receives the rows of a change feed read: which side, the row's {@code snapshot_id} and {@code rowid}, its {@link CellValues}. */
@FunctionalInterface
public interface ChangeRowSink
{
    void accept(ChangeKind kind, long snapshotId, long rowId, Object[] row);
}
