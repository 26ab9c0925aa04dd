package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.StoreException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.tx.StagedTransaction;
import io.moraine.core.write.files.DataFileLayout;
import io.moraine.core.write.MappedDataFile;
import io.moraine.core.write.WriteTransaction;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * DuckLake's maintenance calls as engine-free core operations any engine's procedure calls, each committing exactly
 * what DuckDB+DuckLake 1.5.5's own call commits: {@code ducklake_expire_snapshots},
 * {@code ducklake_cleanup_old_files}, {@code ducklake_delete_orphaned_files}, {@code ducklake_add_data_files}, {@code ducklake_merge_adjacent_files} and
 * {@code ducklake_rewrite_data_files} (on one table or, without a table, on every table of the lake). A dry run reports
 * what the call would do and changes nothing.
 */
public final class LakeMaintenance
{
    private static final String DEFAULT_DELETE_OLDER_THAN = "2 days";

    private final MoraineCatalog catalog;
    private final LakeFileSystem files;

    /** {@code files} reaches the lake's data files (only {@link #cleanupOldFiles} touches them). */
    public LakeMaintenance(MoraineCatalog catalog, LakeFileSystem files)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.files = requireNonNull(files, "files is null");
    }

    /**
     * {@code ducklake_expire_snapshots(older_than => olderThan)}: expires every snapshot committed before
     * {@code olderThan} except the newest, and returns them.
     */
    public List<ExpiredSnapshot> expireSnapshotsOlderThan(Instant olderThan, boolean dryRun)
    {
        requireNonNull(olderThan, "olderThan is null");
        return expire(row -> ((Instant) row.get("snapshot_time")).isBefore(olderThan), dryRun);
    }

    /** {@code ducklake_expire_snapshots(versions => [...])}: expires the named snapshots (never the newest); none named, none expire. */
    public List<ExpiredSnapshot> expireSnapshotVersions(Collection<Long> versions, boolean dryRun)
    {
        Set<Long> named = Set.copyOf(requireNonNull(versions, "versions is null"));
        if (named.isEmpty()) {
            return List.of();
        }
        return expire(row -> named.contains(row.getLong("snapshot_id")), dryRun);
    }

    /**
     * {@code ducklake_expire_snapshots()} without a criterion: expires the snapshots older than the lake's
     * {@code expire_older_than} option, and nothing when that option is not set.
     */
    public List<ExpiredSnapshot> expireSnapshots(boolean dryRun)
    {
        Optional<String> olderThan = globalOption("expire_older_than");
        if (olderThan.isEmpty() || olderThan.get().isEmpty()) {
            return List.of();
        }
        Instant cutoff = DuckDbInterval.parse("expire_older_than", olderThan.get()).before(Instant.now());
        return expireSnapshotsOlderThan(cutoff, dryRun);
    }

    /** {@code ducklake_cleanup_old_files(older_than => olderThan)}: the scheduled files scheduled before {@code olderThan}. */
    public List<String> cleanupOldFiles(Instant olderThan, boolean dryRun)
    {
        requireNonNull(olderThan, "olderThan is null");
        return cleanup(row -> ((Instant) row.get("schedule_start")).isBefore(olderThan), dryRun);
    }

    /** {@code ducklake_cleanup_old_files(cleanup_all => true)}: every scheduled file. */
    public List<String> cleanupAllOldFiles(boolean dryRun)
    {
        return cleanup(row -> true, dryRun);
    }

    /**
     * {@code ducklake_cleanup_old_files()} without a criterion: the files scheduled longer ago than the lake's
     * {@code delete_older_than} option (DuckLake's default: 2 days).
     */
    public List<String> cleanupOldFiles(boolean dryRun)
    {
        String olderThan = globalOption("delete_older_than").orElse(DEFAULT_DELETE_OLDER_THAN);
        if (olderThan.isEmpty()) {
            throw new InvalidArgumentException("ducklake_cleanup_old_files: the lake's delete_older_than option is empty, so give older_than "
                    + "(cleanupOldFiles(Instant, dryRun)) or clean up everything (cleanupAllOldFiles), or set the option, e.g. to '1 week'");
        }
        return cleanupOldFiles(DuckDbInterval.parse("delete_older_than", olderThan).before(Instant.now()), dryRun);
    }

    /**
     * {@code ducklake_delete_orphaned_files(older_than => olderThan)}: deletes the {@code .parquet} and {@code .puffin}
     * files under the lake's data path that no catalog row names ({@link OrphanedFiles}) and that were last modified
     * before {@code olderThan}; returns them. Commits nothing, as DuckLake's call.
     */
    public List<String> deleteOrphanedFiles(Instant olderThan, boolean dryRun)
    {
        return deleteOrphans(Optional.of(requireNonNull(olderThan, "olderThan is null")), dryRun);
    }

    /** {@code ducklake_delete_orphaned_files(cleanup_all => true)}: every orphaned file, whenever it was written. */
    public List<String> deleteAllOrphanedFiles(boolean dryRun)
    {
        return deleteOrphans(Optional.empty(), dryRun);
    }

    /** {@code ducklake_delete_orphaned_files()}: the orphans older than the lake's {@code delete_older_than} option (default 2 days). */
    public List<String> deleteOrphanedFiles(boolean dryRun)
    {
        String olderThan = globalOption("delete_older_than").orElse(DEFAULT_DELETE_OLDER_THAN);
        if (olderThan.isEmpty()) {
            throw new InvalidArgumentException("ducklake_delete_orphaned_files: the lake's delete_older_than option is empty, so give older_than "
                    + "(deleteOrphanedFiles(Instant, dryRun)) or delete every orphan (deleteAllOrphanedFiles), or set the option, e.g. to '1 week'");
        }
        return deleteOrphanedFiles(DuckDbInterval.parse("delete_older_than", olderThan).before(Instant.now()), dryRun);
    }

    private List<String> deleteOrphans(Optional<Instant> olderThan, boolean dryRun)
    {
        List<String> orphans;
        try (CatalogSnapshot head = head()) {
            String dataPath = head.facts().get(StoreFacts.DATA_PATH);
            try {
                orphans = new OrphanedFiles(dataPath, new CatalogRows(catalog, head.reader())).find(files, olderThan);
            }
            catch (IOException e) {
                throw new StoreException("ducklake_delete_orphaned_files could not list the files under " + dataPath + ": " + e.getMessage(), e);
            }
        }
        if (dryRun) {
            return orphans;
        }
        for (String path : orphans) {
            try {
                files.deleteFile(path);
            }
            catch (IOException e) {
                throw new StoreException("ducklake_delete_orphaned_files could not delete " + path + ": " + e.getMessage()
                        + "; run it again once the file system answers (the catalog is not changed)", e);
            }
        }
        return orphans;
    }

    /**
     * {@code ducklake_add_data_files(table, paths, allow_missing, ignore_extra_columns, hive_partitioning)}: adds existing
     * Parquet files (without field ids) to the table where they lie, each read through a name mapping
     * ({@link ExistingFileMapping}: hive directories of the path, list, map and struct columns), in one commit; returns
     * the files added. Each path is a file or a glob ({@link FileGlob}, expanded with the lake's file system in DuckDB's
     * order; one matching nothing fails, naming it); a file named twice is added once, a file without rows is skipped,
     * as DuckLake skips it.
     */
    public List<String> addDataFiles(String schema, String table, List<String> paths, AddFilesOptions options)
    {
        requireNonNull(paths, "paths is null");
        requireNonNull(options, "options is null");
        WriteTransaction transaction = WriteTransaction.begin(catalog, files);
        try {
            DataFileLayout layout = transaction.dataFileLayout(schema, table);
            List<MappedDataFile> mapped = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (String pattern : paths) {
                for (String path : FileGlob.expand(files, pattern)) {
                    // DuckLake 1.5.5 keys its "already added" set on the path with '\\' turned into '/'
                    if (seen.add(path.replace('\\', '/'))) {
                        ExistingFileMapping.map(files, path, table, layout.columns().columns(), layout.partitionSpec(), options).ifPresent(mapped::add);
                    }
                }
            }
            if (mapped.isEmpty()) {
                transaction.rollback();
                return List.of();
            }
            transaction.addMappedDataFiles(schema, table, mapped).commit();
            return mapped.stream().map(file -> file.file().path()).toList();
        }
        catch (RuntimeException e) {
            rollbackQuietly(transaction);
            throw e;
        }
    }

    /**
     * {@code ducklake_merge_adjacent_files(table, min_file_size, max_file_size, max_compacted_files)}: merges runs of
     * small files of the table into one file each ({@link AdjacentFileMerge}), committed as one snapshot
     * ({@code merge_adjacent:<table>}); the sources leave the catalog and are scheduled for deletion. Returns one entry
     * per merge; none when nothing qualifies or the table's {@code auto_compact} option is false.
     */
    public List<CompactionResult> mergeAdjacentFiles(String schema, String table, MergeAdjacentOptions options)
    {
        requireNonNull(options, "options is null");
        try (CompactionCall call = new CompactionCall(catalog, files)) {
            merge(call.table(schema, table), options);
            return call.commit();
        }
    }

    /**
     * {@code ducklake_merge_adjacent_files(catalog)} without a table: merges every table of the lake whose
     * {@code auto_compact} option is not false, all in one snapshot; returns the merges table by table (by table id;
     * DuckDB lists them in its catalog's order).
     */
    public List<CompactionResult> mergeAdjacentFiles(MergeAdjacentOptions options)
    {
        requireNonNull(options, "options is null");
        try (CompactionCall call = new CompactionCall(catalog, files)) {
            call.everyTable().forEach(table -> merge(table, options));
            return call.commit();
        }
    }

    /**
     * {@code ducklake_rewrite_data_files(table, delete_threshold)}: rewrites the table's files whose deleted share
     * reaches {@code deleteThreshold} (null: the table's {@code rewrite_delete_threshold} option, else 0.95) without
     * their deleted rows ({@link DeleteRewrite}), committed as one snapshot ({@code rewrite_delete:<table>}). Returns
     * one entry per rewritten group; none when nothing qualifies or the table's {@code auto_compact} option is false.
     */
    public List<CompactionResult> rewriteDataFiles(String schema, String table, Double deleteThreshold)
    {
        try (CompactionCall call = new CompactionCall(catalog, files)) {
            rewrite(call.table(schema, table), deleteThreshold);
            return call.commit();
        }
    }

    /**
     * {@code ducklake_rewrite_data_files(catalog, delete_threshold)} without a table: rewrites every table of the lake
     * whose {@code auto_compact} option is not false (each with its own {@code rewrite_delete_threshold} when
     * {@code deleteThreshold} is null), all in one snapshot; returns the rewrites table by table (by table id).
     */
    public List<CompactionResult> rewriteDataFiles(Double deleteThreshold)
    {
        try (CompactionCall call = new CompactionCall(catalog, files)) {
            call.everyTable().forEach(table -> rewrite(table, deleteThreshold));
            return call.commit();
        }
    }

    private static void merge(TableCompaction compaction, MergeAdjacentOptions options)
    {
        if (compaction.autoCompact()) {
            AdjacentFileMerge.plan(compaction, options);
        }
    }

    private static void rewrite(TableCompaction compaction, Double deleteThreshold)
    {
        if (compaction.autoCompact()) {
            DeleteRewrite.plan(compaction, DeleteRewrite.threshold(compaction, deleteThreshold));
        }
    }

    private static void rollbackQuietly(WriteTransaction transaction)
    {
        try {
            transaction.rollback();
        }
        catch (RuntimeException ignored) {
            // already committed or rolled back
        }
    }

    private List<ExpiredSnapshot> expire(Predicate<Row> selected, boolean dryRun)
    {
        try (CatalogSnapshot head = head()) {
            CatalogRows rows = new CatalogRows(catalog, head.reader());
            List<Row> snapshots = rows.of(TableKind.SNAPSHOT);
            long newest = snapshots.stream().mapToLong(row -> row.getLong("snapshot_id")).max().orElseThrow();
            List<Row> chosen = snapshots.stream().filter(row -> row.getLong("snapshot_id") != newest).filter(selected).toList();
            List<ExpiredSnapshot> expired = chosen.stream().map(row -> describe(rows, row)).toList();
            if (dryRun || expired.isEmpty()) {
                return expired;
            }
            StagedTransaction tx = catalog.begin(head.id());
            new SnapshotExpiry(rows, paths(head, rows), expired.stream().map(ExpiredSnapshot::snapshotId).toList()).stage(tx, now());
            tx.commit();
            return expired;
        }
    }

    private List<String> cleanup(Predicate<Row> selected, boolean dryRun)
    {
        try (CatalogSnapshot head = head()) {
            CatalogRows rows = new CatalogRows(catalog, head.reader());
            ScheduledPaths paths = paths(head, rows);
            List<Row> scheduled = rows.of(TableKind.FILES_SCHEDULED_FOR_DELETION).stream().filter(selected).toList();
            List<String> removed = scheduled.stream().map(paths::resolve).toList();
            if (dryRun || scheduled.isEmpty()) {
                return removed;
            }
            for (String path : removed) {
                try {
                    files.deleteFile(path);
                }
                catch (IOException e) {
                    throw new StoreException("ducklake_cleanup_old_files could not delete " + path + ": " + e.getMessage()
                            + "; no scheduled row was removed, so run the clean-up again once the file system answers", e);
                }
            }
            // DuckLake deletes by data_file_id: every scheduled row of a cleaned-up id goes.
            Set<Long> ids = Set.copyOf(scheduled.stream().map(row -> row.getLong("data_file_id")).toList());
            StagedTransaction tx = catalog.begin(head.id());
            for (Row row : rows.of(TableKind.FILES_SCHEDULED_FOR_DELETION)) {
                if (ids.contains(row.getLong("data_file_id"))) {
                    tx.delete(TableKind.FILES_SCHEDULED_FOR_DELETION, row.keyCells().toArray());
                }
            }
            tx.commit();
            return removed;
        }
    }

    private CatalogSnapshot head()
    {
        long head = catalog.headSnapshotId().orElseThrow(() -> new NotFoundException("catalog " + catalog.uri()
                + " has no snapshot; create the lake first (bin/moraine create, or ATTACH it through DuckDB)"));
        return catalog.at(head);
    }

    private Optional<String> globalOption(String key)
    {
        try (CatalogSnapshot head = head()) {
            return head.option(key, -1, -1);
        }
    }

    private static ScheduledPaths paths(CatalogSnapshot head, CatalogRows rows)
    {
        return new ScheduledPaths(head.facts().get(StoreFacts.DATA_PATH), rows);
    }

    private static ExpiredSnapshot describe(CatalogRows rows, Row snapshot)
    {
        long id = snapshot.getLong("snapshot_id");
        Optional<Row> changes = rows.of(TableKind.SNAPSHOT_CHANGES).stream().filter(row -> row.getLong("snapshot_id") == id).findFirst();
        return new ExpiredSnapshot(id, (Instant) snapshot.get("snapshot_time"), snapshot.getLong("schema_version"),
                changes.map(row -> row.getString("changes_made")).orElse(null), changes.map(row -> row.getString("author")).orElse(null),
                changes.map(row -> row.getString("commit_message")).orElse(null), changes.map(row -> row.getString("commit_extra_info")).orElse(null));
    }

    private static Instant now()
    {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
