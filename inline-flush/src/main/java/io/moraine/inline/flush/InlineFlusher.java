package io.moraine.inline.flush;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.ColumnNode;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.PartitionSpec;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowScope;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.StoreException;
import io.moraine.core.inline.RowIdMultiset;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.tx.StagedTransaction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ducklake_flush_inlined_data} written in Java (reference §3.4): at the head snapshot F, every inlined row
 * version of a table that began at or before F — live and ended alike — is written to Parquet data files with
 * DuckLake's hidden row-id and snapshot columns, one per schema version and partition value tuple of the spec the rows
 * were inserted under (under hive directories unless {@code hive_file_pattern} is false), in the table's current sort
 * order when it has one; ended versions are named, by their position in the file as written, in a partial delete
 * file per data file; the file records are backdated to the smallest row snapshot; the flushed chunks and the deletion events no
 * other chunk needs are drained; all in one catalog commit at F + 1. Time travel and the change feed see no new rows
 * at F + 1: the rows keep their ids and snapshots.
 */
public final class InlineFlusher
{
    /** One data file a flush wrote for an inlined table (one table, one schema version, one partition value tuple). */
    public record FlushedFile(long tableId, long schemaVersion, long dataFileId, String dataFile, long rows, long endedRows) {}

    private static final String NOTHING_COMMITTED = "nothing was committed to the catalog; files this flush already wrote are "
            + "orphans no snapshot references (safe to delete), and the flush can be run again";

    /** Observes a flush: {@code done} of {@code total} tables written so far, {@code what} the step under way. */
    public interface Progress
    {
        Progress SILENT = (done, total, what) -> {};

        void step(int done, int total, String what);
    }

    private InlineFlusher() {}

    /**
     * Flushes every table with inlined rows, or only {@code schemaName.tableName}, writing and reading the lake's
     * files through {@code files}. Returns the files written (empty when there was nothing to flush, in which case
     * nothing is committed). The files are written before the catalog commit: when anything fails, nothing is
     * committed, and files already written stay behind as orphans that no snapshot references.
     */
    public static List<FlushedFile> flush(MoraineCatalog catalog, Optional<String> qualifiedTable, LakeFileSystem files)
    {
        return flush(catalog, qualifiedTable, files, Progress.SILENT);
    }

    /** {@link #flush(MoraineCatalog, Optional, LakeFileSystem)}, reporting each table and the commit to {@code progress}. */
    public static List<FlushedFile> flush(MoraineCatalog catalog, Optional<String> qualifiedTable, LakeFileSystem files, Progress progress)
    {
        long head = catalog.headSnapshotId().orElseThrow(() -> new NotFoundException("catalog " + catalog.uri() + " has no snapshot"));
        List<FlushedFile> flushed = new ArrayList<>();
        Row headRow;
        List<StagedPlan> plans = new ArrayList<>();
        List<DeleteFileFlush.Plan> deletePlans = new ArrayList<>();
        Map<Long, List<Long>> registeredVersions = new HashMap<>();
        try (CatalogSnapshot snapshot = catalog.at(head); BufferAllocator allocator = new RootAllocator()) {
            headRow = snapshot.snapshotRow();
            String dataPath = snapshot.facts().get(StoreFacts.DATA_PATH);
            long nextFileId = headRow.getLong("next_file_id");
            Map<Long, Long> firstSnapshots = firstSnapshotOfEachSchemaVersion(catalog);
            List<Row> tables = tablesToFlush(snapshot, qualifiedTable);
            int done = 0;
            for (Row table : tables) {
                progress.step(done++, tables.size(), "table " + table.getString("table_name"));
                long tableId = table.getLong("table_id");
                int firstPlan = plans.size();
                List<Row> registrations = snapshot.inlinedDataTables(tableId);
                registeredVersions.put(tableId, registrations.stream().map(row -> row.getLong("schema_version")).toList());
                String tablePath = snapshot.tablePath(dataPath, tableId);
                // hive_file_pattern: whether partitioned files go under key=value/ directories; DuckLake's default is true.
                boolean hive = snapshot.option("hive_file_pattern", table.getLong("schema_id"), tableId).map(value -> value.equalsIgnoreCase("true")).orElse(true);
                for (Row registration : registrations) {
                    long version = registration.getLong("schema_version");
                    VersionState state = versionState(catalog, snapshot, firstSnapshots.get(version), tableId);
                    VersionFlush.Layout layout = new VersionFlush.Layout(files, tablePath, state.partitioning(), hive);
                    Optional<FlushSortOrder> sortOrder = FlushSortOrder.current(snapshot, tableId, state.columns());
                    StagedPlan plan = stageVersion(snapshot, allocator, tableId, version, state.columns(), layout, sortOrder, head, nextFileId);
                    if (plan != null) {
                        nextFileId = plan.nextFileId();
                        plans.add(plan);
                        plan.files().forEach(file -> flushed.add(file.flushed()));
                    }
                }
                try {
                    List<DeleteFileFlush.Plan> tableDeletes = DeleteFileFlush.plan(snapshot, tableId, dataPath, tablePath, files, nextFileId);
                    nextFileId += tableDeletes.size();
                    deletePlans.addAll(tableDeletes);
                    // DuckLake's order of file ids: the flushed data files, the delete files of inlined file deletes, then the
                    // delete files of the flushed files (their rows deleted while inlined)
                    for (int index = firstPlan; index < plans.size(); index++) {
                        StagedPlan plan = plans.get(index);
                        List<FlushFile.Staged> numbered = new ArrayList<>();
                        for (FlushFile.Staged file : plan.files()) {
                            numbered.add(file.deleteFile().isPresent() ? file.withDeleteFileId(nextFileId++) : file);
                        }
                        plans.set(index, new StagedPlan(numbered, nextFileId, plan.tableId(), plan.schemaVersion(), plan.writtenRowIds()));
                    }
                }
                catch (IOException e) {
                    throw new StoreException("flushing inlined deletes of table " + tableId + " under " + tablePath + " failed: " + e.getMessage()
                            + "; " + NOTHING_COMMITTED, e);
                }
            }
            if (plans.isEmpty() && deletePlans.isEmpty()) {
                return flushed;
            }
            progress.step(tables.size(), tables.size(), "committing " + flushed.size() + " files");
            commit(catalog, headRow, plans, deletePlans, nextFileId, registeredVersions);
        }
        return flushed;
    }

    private record StagedPlan(List<FlushFile.Staged> files, long nextFileId, long tableId, long schemaVersion, RowIdMultiset writtenRowIds) {}

    /** The columns and partition spec of a schema version: both as of the version's first snapshot. */
    private record VersionState(List<ColumnNode> columns, Optional<PartitionSpec> partitioning) {}

    private static List<Row> tablesToFlush(CatalogSnapshot snapshot, Optional<String> qualifiedTable)
    {
        if (qualifiedTable.isEmpty()) {
            return snapshot.tables();
        }
        String name = qualifiedTable.get();
        int dot = name.indexOf('.');
        String schema = dot < 0 ? "main" : name.substring(0, dot);
        String table = dot < 0 ? name : name.substring(dot + 1);
        return List.of(snapshot.table(schema, table).orElseThrow(() -> new NotFoundException("table " + schema + "." + table
                + " does not exist at snapshot " + snapshot.id() + "; name it as <schema>.<table>")));
    }

    /**
     * DuckLake resolves an inlined table's layout from the table at the first snapshot of its schema version; a
     * partition change always bumps the schema version, so that snapshot's spec is the one the rows were inserted
     * under. A spec without key columns (RESET PARTITIONED BY) means unpartitioned.
     */
    private static VersionState versionState(MoraineCatalog catalog, CatalogSnapshot head, Long firstSnapshotOfVersion, long tableId)
    {
        if (firstSnapshotOfVersion == null) {
            return stateAt(head, tableId);
        }
        try (CatalogSnapshot atVersion = catalog.at(firstSnapshotOfVersion)) {
            return stateAt(atVersion, tableId);
        }
    }

    /** The first snapshot of every schema version, from one pass over the snapshots. */
    private static Map<Long, Long> firstSnapshotOfEachSchemaVersion(MoraineCatalog catalog)
    {
        Map<Long, Long> first = new HashMap<>();
        try (var snapshots = catalog.scan(TableKind.SNAPSHOT, RowScope.CURRENT)) {
            while (snapshots.hasNext()) {
                Row row = snapshots.next();
                first.merge(row.getLong("schema_version"), row.getLong("snapshot_id"), Math::min);
            }
        }
        return first;
    }

    private static VersionState stateAt(CatalogSnapshot snapshot, long tableId)
    {
        List<ColumnNode> columns = snapshot.columnTree(tableId);
        Optional<PartitionSpec> partitioning = snapshot.partitionInfo(tableId)
                .map(info -> PartitionSpec.of(info.getLong("partition_id"), snapshot.partitionColumns(tableId, info.getLong("partition_id")), columns))
                .filter(spec -> !spec.keys().isEmpty());
        return new VersionState(columns, partitioning);
    }

    private static StagedPlan stageVersion(CatalogSnapshot snapshot, BufferAllocator allocator, long tableId, long version, List<ColumnNode> columns,
            VersionFlush.Layout layout, Optional<FlushSortOrder> sortOrder, long head, long nextFileId)
    {
        try {
            VersionFlush.Written written = VersionFlush.write(snapshot, allocator, tableId, version, columns, layout, sortOrder, head);
            if (written.files().isEmpty()) {
                return null;
            }
            Long partitionId = layout.partitioning().map(PartitionSpec::partitionId).orElse(null);
            List<FlushFile.Staged> files = new ArrayList<>();
            for (FlushFile file : written.files()) {
                FlushFile.Staged staged = file.stage(tableId, version, nextFileId, partitionId);
                nextFileId++;
                files.add(staged);
            }
            return new StagedPlan(files, nextFileId, tableId, version, written.rowIds());
        }
        catch (IOException e) {
            throw new StoreException("writing flushed Parquet for table " + tableId + " under " + layout.tablePath() + " failed: " + e.getMessage()
                    + "; " + NOTHING_COMMITTED, e);
        }
    }

    private static void commit(MoraineCatalog catalog, Row head, List<StagedPlan> plans, List<DeleteFileFlush.Plan> deletePlans, long nextFileId,
            Map<Long, List<Long>> registeredVersions)
    {
        long flushSnapshot = head.getLong("snapshot_id");
        Row snapshot = Row.of(TableKind.SNAPSHOT, flushSnapshot + 1, Instant.now().truncatedTo(ChronoUnit.MICROS),
                head.getLong("schema_version"), head.getLong("next_catalog_id"), nextFileId);
        // DuckLake's order: deleted_from_table entries before inline_flush entries.
        List<String> entries = new ArrayList<>();
        deletePlans.stream().map(DeleteFileFlush.Plan::tableId).distinct().forEach(tableId -> entries.add("deleted_from_table:" + tableId));
        java.util.stream.Stream.concat(plans.stream().map(StagedPlan::tableId), deletePlans.stream().map(DeleteFileFlush.Plan::tableId))
                .distinct().forEach(tableId -> entries.add("inline_flush:" + tableId));
        String changes = String.join(",", entries);
        StagedTransaction transaction = catalog.begin(flushSnapshot)
                .insert(snapshot)
                .insert(io.moraine.core.catalog.SnapshotRows.changes(flushSnapshot + 1, changes));
        deletePlans.forEach(plan -> DeleteFileFlush.stage(transaction, plan));
        Map<Long, Long> newestVersion = new HashMap<>();
        for (StagedPlan plan : plans) {
            for (FlushFile.Staged file : plan.files()) {
                transaction.insert(file.dataFile());
                file.columnStats().forEach(transaction::insert);
                file.partitionValues().forEach(transaction::insert);
                file.deleteFile().ifPresent(transaction::insert);
            }
            transaction.drainInlined(plan.tableId(), plan.schemaVersion(), flushSnapshot, plan.writtenRowIds());
            newestVersion.merge(plan.tableId(), plan.schemaVersion(), Math::max);
        }
        // Superseded inlined tables of a flushed table are deregistered, as DuckLake's clean-up does: those the flush emptied and
        // those that held no live row any more.
        for (Map.Entry<Long, List<Long>> table : registeredVersions.entrySet()) {
            if (!newestVersion.containsKey(table.getKey())) {
                continue;
            }
            long newest = table.getValue().stream().mapToLong(Long::longValue).max().orElseThrow();
            for (long version : table.getValue()) {
                if (version < newest) {
                    transaction.deregisterInlinedTable(table.getKey(), version);
                }
            }
        }
        transaction.commit();
    }
}
