package io.moraine.core.changes;

/**
 * One self-contained piece of a change feed that an engine reads with its own reader: the insertions of a data file
 * ({@link InsertedRowsTask}), the deletions of one ({@link DeletedRowsTask}), or a side of the inlined rows
 * ({@link InlinedChangesTask}).
 */
public sealed interface ChangeTask
        permits InsertedRowsTask, DeletedRowsTask, InlinedChangesTask
{
    long tableId();

    ChangeKind kind();
}
