package io.moraine.core.scan;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.ColumnNode;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.row.TableKind;
import io.moraine.core.types.TableSchema;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

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
        OptionalLong first = firstSnapshotOf(snapshot, tableId, schemaVersion);
        if (first.isEmpty() || first.getAsLong() > snapshot.id()) {
            return Optional.empty();
        }
        List<ColumnNode> columns = snapshot.columnTreeAsOf(tableId, first.getAsLong());
        return columns.isEmpty() ? Optional.empty() : Optional.of(TableSchema.of(columns));
    }

    /**
     * The first snapshot of schema version {@code schemaVersion}: the table's {@code ducklake_schema_versions} row
     * (one key read), or, for catalogs without one, the first snapshot row of that version.
     */
    private static OptionalLong firstSnapshotOf(CatalogSnapshot snapshot, long tableId, long schemaVersion)
    {
        try (RowCursor versions = snapshot.children(TableKind.SCHEMA_VERSIONS, tableId, schemaVersion)) {
            if (versions.hasNext()) {
                return OptionalLong.of(versions.next().getLong("begin_snapshot"));
            }
        }
        // Snapshots come in id order, and schema versions never decrease from one snapshot to the next.
        try (RowCursor snapshots = snapshot.children(TableKind.SNAPSHOT)) {
            while (snapshots.hasNext()) {
                Row row = snapshots.next();
                long version = row.getLong("schema_version");
                if (version > schemaVersion) {
                    return OptionalLong.empty();
                }
                if (version == schemaVersion) {
                    return OptionalLong.of(row.getLong("snapshot_id"));
                }
            }
        }
        return OptionalLong.empty();
    }
}
