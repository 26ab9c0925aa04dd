package io.moraine.core.write;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.tx.StagedTransaction;

import java.util.List;
import java.util.Optional;

/**
 * The rows of a table's definition a commit writes, as DuckLake's {@code CommitChanges} does: a dropped table ends its
 * table, partition, column, tag, file and sort rows; a created one gets its table, column, partition, tag and sort rows
 * and an inlined-data table; an altered one ends and adds column rows, replaces its partition spec, sort order or
 * comment. A table whose columns or partitioning changed gets a {@code ducklake_schema_versions} row.
 */
final class TableRows
{
    private final CommitAttempt attempt;
    private final StagedTransaction tx;
    private final ChangesMade changes;
    private final long schemaVersion;
    private final long snapshotId;

    TableRows(CommitAttempt attempt, StagedTransaction tx, ChangesMade changes, long schemaVersion)
    {
        this.attempt = attempt;
        this.tx = tx;
        this.changes = changes;
        this.schemaVersion = schemaVersion;
        this.snapshotId = attempt.snapshotId;
    }

    /** Takes the catalog ids of the table's new partition spec and sort order, in DuckLake's order. */
    static void allocateKeys(TableDraft table, CommitAttempt.Counters counters)
    {
        // RESET PARTITIONED BY of an existing table still takes an id: DuckLake writes a spec without keys.
        table.newPartitioning.filter(keys -> !keys.isEmpty() || !table.created).ifPresent(keys -> table.partitionId = counters.nextCatalogId++);
        table.newSortOrder.filter(keys -> !keys.isEmpty()).ifPresent(keys -> table.sortId = counters.nextCatalogId++);
    }

    void drop(TableDraft table)
    {
        long id = table.tableId;
        tx.endRow(TableKind.TABLE, snapshotId, id, table.baseRow.getLong("begin_snapshot"));
        attempt.base.partitionInfo(id).ifPresent(info -> tx.endRow(TableKind.PARTITION_INFO, snapshotId, id, info.getLong("partition_id")));
        for (Row column : attempt.base.columns(id)) {
            tx.endRow(TableKind.COLUMN, snapshotId, id, column.getLong("column_id"), column.getLong("begin_snapshot"));
        }
        for (Row tag : attempt.base.columnTags(id)) {
            tx.endRow(TableKind.COLUMN_TAG, snapshotId, id, tag.getLong("column_id"), tag.getString("key"), tag.getLong("begin_snapshot"));
        }
        try (var files = attempt.base.dataFiles(id)) {
            files.forEachRemaining(file -> tx.endRow(TableKind.DATA_FILE, snapshotId, id, file.getLong("data_file_id")));
        }
        try (var files = attempt.base.deleteFiles(id)) {
            files.forEachRemaining(file -> tx.endRow(TableKind.DELETE_FILE, snapshotId, id, file.getLong("delete_file_id")));
        }
        for (Row tag : attempt.base.tags(id)) {
            tx.endRow(TableKind.TAG, snapshotId, id, tag.getString("key"), tag.getLong("begin_snapshot"));
        }
        attempt.base.sortInfo(id).ifPresent(sort -> tx.endRow(TableKind.SORT_INFO, snapshotId, id, sort.getLong("sort_id")));
        changes.add("dropped_table", id);
    }

    void create(TableDraft table, long schemaId)
    {
        long id = table.tableId;
        tx.insert(Row.of(TableKind.TABLE, id, table.uuid, snapshotId, null, schemaId, table.name, table.path, true));
        for (Row column : table.addedColumns) {
            tx.insert(column.with("table_id", id));
        }
        stagePartitioning(table);
        stageComment(table);
        stageColumnComments(table);
        // DuckDB sets a new table's comment with COMMENT ON, an alteration of the table it just created.
        table.newComment.flatMap(comment -> comment).ifPresent(comment -> changes.add("altered_table", id));
        // ... and its partitioning and sort order with ALTER TABLE SET PARTITIONED BY / SET SORTED BY.
        if (table.newPartitioning.filter(keys -> !keys.isEmpty()).isPresent() || table.newSortOrder.filter(keys -> !keys.isEmpty()).isPresent()) {
            changes.add("altered_table", id);
        }
        registerInlinedTable(table);
        stageSortOrder(table);
        tx.insert(Row.of(TableKind.SCHEMA_VERSIONS, snapshotId, schemaVersion, id));
        changes.createdTable(table.schemaName, table.name);
    }

    void alter(TableDraft table)
    {
        long id = table.tableId;
        if (table.renamed) {
            tx.endRow(TableKind.TABLE, snapshotId, id, table.baseRow.getLong("begin_snapshot"));
            tx.insert(table.baseRow.with("begin_snapshot", snapshotId).with("table_name", table.name));
            changes.createdTable(table.schemaName, table.name);
        }
        if (!table.altered) {
            if (table.renamed) {
                registerInlinedTable(table);
                tx.insert(Row.of(TableKind.SCHEMA_VERSIONS, snapshotId, schemaVersion, id));
            }
            return;
        }
        stagePartitioning(table);
        stageComment(table);
        stageColumnComments(table);
        for (Row ended : table.endedColumns) {
            tx.endRow(TableKind.COLUMN, snapshotId, id, ended.getLong("column_id"), ended.getLong("begin_snapshot"));
        }
        for (Row column : table.addedColumns) {
            tx.insert(column);
        }
        if (table.inlinedLayoutChanged || table.renamed) {
            registerInlinedTable(table);
        }
        stageSortOrder(table);
        if (table.columnsChanged || table.renamed) {
            tx.insert(Row.of(TableKind.SCHEMA_VERSIONS, snapshotId, schemaVersion, id));
        }
        changes.add("altered_table", id);
    }

    private void stagePartitioning(TableDraft table)
    {
        if (table.newPartitioning.isEmpty()) {
            return;
        }
        long id = table.tableId;
        if (!table.created) {
            attempt.base.partitionInfo(id).ifPresent(info -> tx.endRow(TableKind.PARTITION_INFO, snapshotId, id, info.getLong("partition_id")));
        }
        List<PartitionField> keys = table.newPartitioning.get();
        if (table.partitionId < 0) {
            return;
        }
        tx.insert(Row.of(TableKind.PARTITION_INFO, table.partitionId, id, snapshotId, null));
        for (int index = 0; index < keys.size(); index++) {
            PartitionField key = keys.get(index);
            Row column = table.column(key.column()).orElseThrow(() -> new io.moraine.core.error.NotFoundException("partition key column " + key.column()
                    + " is not a top-level column of " + table.qualifiedName() + "; name one of its columns"));
            tx.insert(Row.of(TableKind.PARTITION_COLUMN, table.partitionId, id, (long) index, column.getLong("column_id"), key.transform().text()));
        }
    }

    private void stageSortOrder(TableDraft table)
    {
        if (table.newSortOrder.isEmpty()) {
            return;
        }
        long id = table.tableId;
        if (!table.created) {
            attempt.base.sortInfo(id).ifPresent(sort -> tx.endRow(TableKind.SORT_INFO, snapshotId, id, sort.getLong("sort_id")));
        }
        List<SortField> keys = table.newSortOrder.get();
        if (keys.isEmpty()) {
            return;
        }
        tx.insert(Row.of(TableKind.SORT_INFO, table.sortId, id, snapshotId, null));
        for (int index = 0; index < keys.size(); index++) {
            SortField key = keys.get(index);
            tx.insert(Row.of(TableKind.SORT_EXPRESSION, table.sortId, id, (long) index, key.expression(), key.dialect(),
                    key.descending() ? "DESC" : "ASC", key.nullsFirst() ? "NULLS_FIRST" : "NULLS_LAST"));
        }
    }

    private void stageComment(TableDraft table)
    {
        if (table.newComment.isEmpty()) {
            return;
        }
        long id = table.tableId;
        if (!table.created) {
            attempt.base.tags(id).stream().filter(tag -> "comment".equals(tag.getString("key")))
                    .forEach(tag -> tx.endRow(TableKind.TAG, snapshotId, id, "comment", tag.getLong("begin_snapshot")));
        }
        Optional<String> comment = table.newComment.get();
        comment.ifPresent(text -> tx.insert(Row.of(TableKind.TAG, id, snapshotId, null, "comment", text)));
    }

    private void stageColumnComments(TableDraft table)
    {
        long id = table.tableId;
        table.newColumnComments.forEach((columnId, comment) -> {
            if (!table.created) {
                attempt.base.columnTags(id).stream()
                        .filter(tag -> tag.getLong("column_id").equals(columnId) && "comment".equals(tag.getString("key")))
                        .forEach(tag -> tx.endRow(TableKind.COLUMN_TAG, snapshotId, id, columnId, "comment", tag.getLong("begin_snapshot")));
            }
            comment.ifPresent(text -> tx.insert(Row.of(TableKind.COLUMN_TAG, id, columnId, snapshotId, null, "comment", text)));
        });
    }

    /** A table created or changed gets a new inlined-data table for its new schema version, when inlining is on. */
    private void registerInlinedTable(TableDraft table)
    {
        if (attempt.data().inliningLimit(table) <= 0) {
            return;
        }
        tx.registerInlinedTable(table.tableId, schemaVersion, InlinedArrowSchema.of(table));
        table.inlinedVersion = schemaVersion;
    }
}
