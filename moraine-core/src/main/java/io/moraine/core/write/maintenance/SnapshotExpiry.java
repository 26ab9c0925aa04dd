package io.moraine.core.write.maintenance;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.tx.StagedTransaction;

import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The rows {@code ducklake_expire_snapshots} deletes and inserts for a set of expired snapshots (DuckLake 1.5.5's
 * {@code DuckLakeMetadataManager::DeleteSnapshots}, statement by statement): the snapshots and their changes; data files
 * no remaining snapshot sees (and every file of a table no remaining snapshot sees) with their statistics and partition
 * values, scheduled for deletion; their delete files and delete files no remaining snapshot sees, scheduled too; every
 * row of such a table (its inlined data goes with its last ducklake_table row); schemas, views, tags and macros no
 * remaining snapshot sees; macro implementations and name mappings left without their parent row. It adds no snapshot.
 */
final class SnapshotExpiry
{
    /** What DuckLake deletes by table_id for a table no remaining snapshot sees. */
    private static final List<TableKind> TABLE_ROWS = List.of(TableKind.TABLE, TableKind.TABLE_STATS, TableKind.TABLE_COLUMN_STATS,
            TableKind.PARTITION_INFO, TableKind.PARTITION_COLUMN, TableKind.COLUMN, TableKind.COLUMN_TAG, TableKind.SORT_INFO,
            TableKind.SORT_EXPRESSION, TableKind.SCHEMA_VERSIONS, TableKind.INLINED_DATA_TABLES, TableKind.COLUMN_MAPPING);
    private static final List<TableKind> DATA_FILE_ROWS = List.of(TableKind.DATA_FILE, TableKind.FILE_COLUMN_STATS, TableKind.FILE_VARIANT_STATS,
            TableKind.FILE_PARTITION_VALUE);
    private static final List<TableKind> VERSIONED_OBJECTS = List.of(TableKind.SCHEMA, TableKind.VIEW, TableKind.TAG, TableKind.MACRO);

    private final CatalogRows rows;
    private final ScheduledPaths paths;
    private final Set<Long> expired;
    private final NavigableSet<Long> remaining = new TreeSet<>();

    SnapshotExpiry(CatalogRows rows, ScheduledPaths paths, Collection<Long> expired)
    {
        this.rows = rows;
        this.paths = paths;
        this.expired = Set.copyOf(expired);
        rows.of(TableKind.SNAPSHOT).stream().map(row -> row.getLong("snapshot_id")).filter(id -> !this.expired.contains(id)).forEach(remaining::add);
    }

    /** Stages every row change into {@code tx}; scheduled files start at {@code now}. */
    void stage(StagedTransaction tx, Instant now)
    {
        deleteWhere(tx, TableKind.SNAPSHOT, row -> expired.contains(row.getLong("snapshot_id")));
        deleteWhere(tx, TableKind.SNAPSHOT_CHANGES, row -> expired.contains(row.getLong("snapshot_id")));

        Set<Long> goneTables = tablesNoSnapshotSees();
        Set<Long> goneDataFiles = new LinkedHashSet<>();
        for (Row file : rows.of(TableKind.DATA_FILE)) {
            if (goneTables.contains(file.getLong("table_id")) || unseen(file)) {
                goneDataFiles.add(file.getLong("data_file_id"));
                schedule(tx, file.getLong("data_file_id"), file, now);
            }
        }
        for (TableKind kind : DATA_FILE_ROWS) {
            deleteWhere(tx, kind, row -> goneDataFiles.contains(row.getLong("data_file_id")));
        }
        for (Row file : rows.of(TableKind.DELETE_FILE)) {
            if (goneTables.contains(file.getLong("table_id")) || goneDataFiles.contains(file.getLong("data_file_id")) || unseen(file)) {
                tx.delete(TableKind.DELETE_FILE, file.keyCells().toArray());
                schedule(tx, file.getLong("delete_file_id"), file, now);
            }
        }
        for (TableKind kind : TABLE_ROWS) {
            deleteWhere(tx, kind, row -> goneTables.contains(row.getLong("table_id")));
        }
        for (TableKind kind : VERSIONED_OBJECTS) {
            deleteWhere(tx, kind, this::unseen);
        }
        Set<Long> keptMacros = new HashSet<>();
        rows.of(TableKind.MACRO).stream().filter(row -> !unseen(row)).forEach(row -> keptMacros.add(row.getLong("macro_id")));
        deleteWhere(tx, TableKind.MACRO_IMPL, row -> !keptMacros.contains(row.getLong("macro_id")));
        deleteWhere(tx, TableKind.MACRO_PARAMETERS, row -> !keptMacros.contains(row.getLong("macro_id")));
        Set<Long> keptMappings = new HashSet<>();
        rows.of(TableKind.COLUMN_MAPPING).stream().filter(row -> !goneTables.contains(row.getLong("table_id")))
                .forEach(row -> keptMappings.add(row.getLong("mapping_id")));
        deleteWhere(tx, TableKind.NAME_MAPPING, row -> !keptMappings.contains(row.getLong("mapping_id")));
    }

    /**
     * Tables with an ended row no remaining snapshot sees and no row that is current or seen by a remaining snapshot:
     * dropped tables whose every version has expired.
     */
    private Set<Long> tablesNoSnapshotSees()
    {
        Set<Long> candidates = new LinkedHashSet<>();
        Set<Long> kept = new HashSet<>();
        for (Row table : rows.of(TableKind.TABLE)) {
            long id = table.getLong("table_id");
            if (table.get("end_snapshot") == null || seen(table)) {
                kept.add(id);
            }
            else {
                candidates.add(id);
            }
        }
        candidates.removeAll(kept);
        return candidates;
    }

    /** An ended row that no remaining snapshot lies in [begin_snapshot, end_snapshot) of. */
    private boolean unseen(Row row)
    {
        return row.get("end_snapshot") != null && !seen(row);
    }

    private boolean seen(Row row)
    {
        Long seenAt = remaining.ceiling(row.getLong("begin_snapshot"));
        return seenAt != null && seenAt < row.getLong("end_snapshot");
    }

    private void schedule(StagedTransaction tx, long fileId, Row file, Instant now)
    {
        ScheduledPaths.Stored stored = paths.stored(file);
        tx.insert(Row.of(TableKind.FILES_SCHEDULED_FOR_DELETION, fileId, stored.path(), stored.relative(), now));
    }

    private void deleteWhere(StagedTransaction tx, TableKind kind, Predicate<Row> condition)
    {
        for (Row row : rows.of(kind)) {
            if (condition.test(row)) {
                tx.delete(kind, row.keyCells().toArray());
            }
        }
    }
}
