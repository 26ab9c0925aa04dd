package io.moraine.core.scan;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.ColumnNode;
import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.catalog.TableKind;
import io.moraine.core.types.TableSchema;

import java.util.List;
import java.util.Optional;

/**
 * The columns the inlined rows of one schema version were written with (reference §3.1): the table's columns at the
 * first snapshot of that version. The inline reader names a batch's columns as its schema version did, so after a
 * rename the names at the scan's snapshot miss them; column ids do not change, and a reader of an
 * {@link InlinedRowsTask} matches each batch's columns (and struct fields) to its read schema by id through this schema.
 */
public final class InlinedVersionColumns
{
    private InlinedVersionColumns() {}

    /**
     * The table's columns at schema version {@code schemaVersion}, read through {@code snapshot}; empty when no snapshot
     * of that version at or before it survives (an expiry reclaimed them).
     */
    public static Optional<TableSchema> of(CatalogSnapshot snapshot, long tableId, long schemaVersion)
    {
        // Snapshots come in id order, and schema versions never decrease from one snapshot to the next.
        try (RowCursor snapshots = snapshot.children(TableKind.SNAPSHOT)) {
            while (snapshots.hasNext()) {
                Row row = snapshots.next();
                long id = row.getLong("snapshot_id");
                long version = row.getLong("schema_version");
                if (id > snapshot.id() || version > schemaVersion) {
                    return Optional.empty();
                }
                if (version == schemaVersion) {
                    List<ColumnNode> columns = snapshot.columnTreeAsOf(tableId, id);
                    return columns.isEmpty() ? Optional.empty() : Optional.of(TableSchema.of(columns));
                }
            }
        }
        return Optional.empty();
    }
}
