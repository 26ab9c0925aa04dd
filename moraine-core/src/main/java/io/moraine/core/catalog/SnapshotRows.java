package io.moraine.core.catalog;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Builds the two rows every DuckLake commit adds: its {@code ducklake_snapshot} and {@code ducklake_snapshot_changes}. */
public final class SnapshotRows
{
    private SnapshotRows() {}

    /**
     * The snapshot after {@code previous}, taken now: the schema version and the catalog/file id counters advanced
     * by what the commit used (reference §1.1-1.2).
     */
    public static Row next(Row previous, long schemaVersionDelta, long catalogIdsUsed, long fileIdsUsed)
    {
        return Row.of(TableKind.SNAPSHOT, previous.getLong("snapshot_id") + 1, Instant.now().truncatedTo(ChronoUnit.MICROS),
                previous.getLong("schema_version") + schemaVersionDelta,
                previous.getLong("next_catalog_id") + catalogIdsUsed,
                previous.getLong("next_file_id") + fileIdsUsed);
    }

    /** The changes row of snapshot {@code snapshotId}, e.g. {@code inserted_into_table:3}; no author or message. */
    public static Row changes(long snapshotId, String changesMade)
    {
        return Row.of(TableKind.SNAPSHOT_CHANGES, snapshotId, changesMade, null, null, null);
    }
}
