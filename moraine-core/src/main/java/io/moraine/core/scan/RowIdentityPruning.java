package io.moraine.core.scan;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.row.SnapshotChanges;
import io.moraine.core.row.TableKind;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Prunes data files by the hidden columns a {@link ScanFilter} constrains: {@link HiddenColumn#PATH} against the
 * file's resolved path, {@link HiddenColumn#ROW_ID} against the row ids the file can hold.
 * <p>
 * A file's row ids are {@code [row_id_start, row_id_start + record_count)} only when it does not embed
 * {@code _ducklake_internal_row_id} (reference §4.8); UPDATE, flush, merge and rewrite outputs embed them, and the
 * catalog does not say which file does. At planning a file is judged by its range only when the catalog proves it is
 * positional: it has a {@code row_id_start}, no {@code partial_max} (flush and merge outputs have one), and the snapshot
 * that wrote it (its {@code begin_snapshot}, not backdated without {@code partial_max}) changed the table by inserting
 * only (an UPDATE also deletes, a rewrite's snapshot holds nothing else) and wrote no delete file of the table (a
 * transaction that updates rows it inserted itself records only {@code inserted_into_table}, but deletes the old
 * versions with a delete file of the same snapshot). Other files are kept; readers learn from the
 * footer whether the file embeds row ids and call {@link #rowIdsMayMatch} themselves, or test the embedded column's
 * statistics.
 */
public final class RowIdentityPruning
{
    private final Optional<ColumnDomain> paths;
    private final Optional<ColumnDomain> rowIds;
    private final Supplier<Map<Long, Boolean>> insertOnlySnapshots;
    private final RowIdMembership membership;

    private RowIdentityPruning(Optional<ColumnDomain> paths, Optional<ColumnDomain> rowIds, Supplier<Map<Long, Boolean>> insertOnlySnapshots,
            RowIdMembership membership)
    {
        this.paths = paths;
        this.rowIds = rowIds;
        this.insertOnlySnapshots = insertOnlySnapshots;
        this.membership = membership;
    }

    static RowIdentityPruning of(CatalogSnapshot snapshot, long tableId, ScanFilter filter, RowIdMembership membership)
    {
        Optional<ColumnDomain> rowIds = Optional.ofNullable(filter.domains().get(HiddenColumn.ROW_ID.columnId()));
        return new RowIdentityPruning(Optional.ofNullable(filter.domains().get(HiddenColumn.PATH.columnId())), rowIds,
                com.google.common.base.Suppliers.memoize(() -> insertOnlySnapshots(snapshot, tableId)), membership);
    }

    /**
     * Whether the catalog proves {@code file}'s row ids are {@code row_id_start + position} (see the class comment), so
     * that its ids are known without reading anything; files for which this is false may embed row ids.
     */
    public static java.util.function.Predicate<DataFileTask> provenPositional(CatalogSnapshot snapshot, long tableId)
    {
        Supplier<Map<Long, Boolean>> insertOnly = com.google.common.base.Suppliers.memoize(() -> insertOnlySnapshots(snapshot, tableId));
        return file -> file.rowIdStart().isPresent() && file.partialMax().isEmpty() && insertOnly.get().getOrDefault(file.beginSnapshot(), false);
    }

    /** Whether inlined rows may match: they have no {@code $path}, so a path domain without NULL rules them out. */
    boolean inlinedRowsMayMatch()
    {
        return paths.map(ColumnDomain::nullAllowed).orElse(true);
    }

    /** Whether the file may hold rows the filter's path and row-id domains accept. */
    boolean mayMatch(DataFileTask file)
    {
        if (paths.isPresent() && !paths.get().accepts(file.path())) {
            return false;
        }
        if (rowIds.isEmpty()) {
            return true;
        }
        boolean positional = file.rowIdStart().isPresent() && file.partialMax().isEmpty()
                && insertOnlySnapshots.get().getOrDefault(file.beginSnapshot(), false);
        if (positional) {
            return rowIdsMayMatch(file, rowIds.get(), false);
        }
        // only a bounded domain (points, IN lists, ranges) is worth asking about: an open one matches nearly every file
        return !bounded(rowIds.get()) || membership.mayHold(file, rowIds.get());
    }

    private static boolean bounded(ColumnDomain domain)
    {
        return !domain.ranges().isEmpty() && domain.ranges().stream().allMatch(range -> range.low().isPresent() && range.high().isPresent());
    }

    /**
     * Whether a file whose embedding of row ids is known may hold a row id {@code rowIds} accepts: a file without
     * embedded row ids holds exactly {@code [row_id_start, row_id_start + record_count)}; one with them is not judged
     * here (test its embedded column's statistics).
     */
    public static boolean rowIdsMayMatch(DataFileTask file, ColumnDomain rowIds, boolean embedsRowIds)
    {
        if (embedsRowIds || file.rowIdStart().isEmpty()) {
            return true;
        }
        if (file.recordCount() <= 0) {
            return false;
        }
        long first = file.rowIdStart().getAsLong();
        long last = first + file.recordCount() - 1;
        return rowIds.ranges().stream().anyMatch(range -> range.overlaps(first, last));
    }

    /**
     * For each snapshot that changed the table, whether it only inserted into it (files it wrote number their rows from
     * {@code row_id_start}). Snapshots whose changes are no longer recorded are absent.
     */
    private static Map<Long, Boolean> insertOnlySnapshots(CatalogSnapshot snapshot, long tableId)
    {
        java.util.Set<Long> deletingSnapshots = new java.util.HashSet<>();
        try (RowCursor deleteFiles = snapshot.everyVersion(TableKind.DELETE_FILE, tableId)) {
            deleteFiles.forEachRemaining(row -> deletingSnapshots.add(row.getLong("begin_snapshot")));
        }
        Map<Long, Boolean> result = new HashMap<>();
        try (RowCursor rows = snapshot.visible(TableKind.SNAPSHOT_CHANGES)) {
            while (rows.hasNext()) {
                Row row = rows.next();
                boolean inserts = false;
                boolean otherwise = false;
                List<SnapshotChanges.Change> changes = SnapshotChanges.parse(row.getString("changes_made"));
                for (SnapshotChanges.Change change : changes) {
                    if (change.id().isEmpty() || change.id().getAsLong() != tableId) {
                        continue;
                    }
                    if (change.type().equals("inserted_into_table")) {
                        inserts = true;
                    }
                    else if (!change.type().equals("altered_table")) {
                        otherwise = true;
                    }
                }
                if (changes.stream().anyMatch(change -> change.type().equals("inline_flush") || change.type().equals("flushed_inlined") || change.type().equals("merge_adjacent")
                        || change.type().equals("rewrite_delete") || change.type().equals("compacted_table"))) {
                    otherwise = true;
                }
                if (inserts) {
                    result.put(row.getLong("snapshot_id"), !otherwise && !deletingSnapshots.contains(row.getLong("snapshot_id")));
                }
            }
        }
        return result;
    }
}
