package io.moraine.inline.flush;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.ColumnNode;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.RowScope;
import io.moraine.core.catalog.StoreFacts;
import io.moraine.core.catalog.TableKind;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.StoreException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.inline.RowIdMultiset;
import io.moraine.core.tx.StagedTransaction;
import io.moraine.inline.InlineBatch;
import io.moraine.inline.InlineReader;
import io.moraine.inline.InlineScan;
import io.moraine.inline.InlineSelection;
import io.moraine.inline.storage.LakeFileSystem;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code ducklake_flush_inlined_data} written in Java (reference §3.4): at the head snapshot F, every inlined row
 * version of a table that began at or before F — live and ended alike — is written to one Parquet data file per
 * schema version with DuckLake's hidden row-id and snapshot columns; ended versions are named in a partial delete
 * file; the file records are backdated to the smallest row snapshot; the flushed chunks and the deletion events no
 * other chunk needs are drained; all in one catalog commit at F + 1. Time travel and the change feed see no new rows
 * at F + 1: the rows keep their ids and snapshots.
 */
public final class InlineFlusher
{
    private static final int WINDOW_ROWS = 8192;
    private static final String NOTHING_COMMITTED = "nothing was committed to the catalog; files this flush already wrote are "
            + "orphans no snapshot references (safe to delete), and the flush can be run again";

    /** What a flush wrote for one inlined table (one table, one schema version). */
    public record FlushedFile(long tableId, long schemaVersion, long dataFileId, String dataFile, long rows, long endedRows) {}

    private InlineFlusher() {}

    /**
     * Flushes every table with inlined rows, or only {@code schemaName.tableName}. Returns the files written (empty
     * when there was nothing to flush, in which case nothing is committed). Files on {@code s3://} data paths are
     * written with the S3 settings of the environment, the ones the catalog store reads.
     */
    public static List<FlushedFile> flush(MoraineCatalog catalog, Optional<String> qualifiedTable)
    {
        try (LakeFileSystem files = LakeFileSystem.fromEnvironment()) {
            return flush(catalog, qualifiedTable, files);
        }
    }

    /**
     * {@link #flush(MoraineCatalog, Optional)} writing and reading the lake's files through {@code files}. The files are
     * written before the catalog commit: when anything fails, nothing is committed, and files already written stay
     * behind as orphans that no snapshot references.
     */
    public static List<FlushedFile> flush(MoraineCatalog catalog, Optional<String> qualifiedTable, LakeFileSystem files)
    {
        long head = catalog.headSnapshotId().orElseThrow(() -> new NotFoundException("catalog " + catalog.uri() + " has no snapshot"));
        List<FlushedFile> flushed = new ArrayList<>();
        Row headRow;
        List<StagedPlan> plans = new ArrayList<>();
        List<DeleteFileFlush.Plan> deletePlans = new ArrayList<>();
        try (CatalogSnapshot snapshot = catalog.at(head); BufferAllocator allocator = new RootAllocator()) {
            headRow = snapshot.snapshotRow();
            String dataPath = snapshot.facts().get(StoreFacts.DATA_PATH);
            long nextFileId = headRow.getLong("next_file_id");
            for (Row table : tablesToFlush(snapshot, qualifiedTable)) {
                long tableId = table.getLong("table_id");
                List<Row> registrations = snapshot.inlinedDataTables(tableId);
                if (snapshot.partitionInfo(tableId).map(info -> !snapshot.partitionColumns(tableId, info.getLong("partition_id")).isEmpty()).orElse(false)) {
                    throw new UnsupportedFeatureException("table " + table.getString("table_name") + " is partitioned; flushing "
                            + "partitioned tables in Java is not supported yet. Flush it with DuckDB: CALL ducklake_flush_inlined_data(...)");
                }
                String tablePath = snapshot.tablePath(dataPath, tableId);
                for (Row registration : registrations) {
                    long version = registration.getLong("schema_version");
                    List<ColumnNode> columns = columnsOfVersion(catalog, snapshot, tableId, version);
                    StagedPlan plan = writeVersion(snapshot, allocator, tableId, version, columns, head, files, tablePath, nextFileId);
                    if (plan != null) {
                        nextFileId = plan.nextFileId();
                        plans.add(plan);
                        flushed.add(plan.flushed());
                    }
                }
                try {
                    List<DeleteFileFlush.Plan> tableDeletes = DeleteFileFlush.plan(snapshot, tableId, dataPath, tablePath, files, nextFileId);
                    nextFileId += tableDeletes.size();
                    deletePlans.addAll(tableDeletes);
                }
                catch (IOException e) {
                    throw new StoreException("flushing inlined deletes of table " + tableId + " under " + tablePath + " failed: " + e.getMessage()
                            + "; " + NOTHING_COMMITTED, e);
                }
            }
            if (plans.isEmpty() && deletePlans.isEmpty()) {
                return flushed;
            }
            commit(catalog, headRow, plans, deletePlans, nextFileId);
        }
        return flushed;
    }

    private record StagedPlan(FlushedFile flushed, Row dataFile, List<Row> columnStats, Optional<Row> deleteFile, long nextFileId, long tableId,
            long schemaVersion, RowIdMultiset writtenRowIds) {}

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

    /** DuckLake resolves an inlined table's layout from the columns at the first snapshot of its schema version. */
    private static List<ColumnNode> columnsOfVersion(MoraineCatalog catalog, CatalogSnapshot head, long tableId, long version)
    {
        Long first = null;
        try (var snapshots = catalog.scan(TableKind.SNAPSHOT, RowScope.CURRENT)) {
            while (snapshots.hasNext()) {
                Row row = snapshots.next();
                if (row.getLong("schema_version") == version && (first == null || row.getLong("snapshot_id") < first)) {
                    first = row.getLong("snapshot_id");
                }
            }
        }
        if (first == null) {
            return head.columnTree(tableId);
        }
        try (CatalogSnapshot atVersion = catalog.at(first)) {
            return atVersion.columnTree(tableId);
        }
    }

    private static StagedPlan writeVersion(CatalogSnapshot snapshot, BufferAllocator allocator, long tableId, long version, List<ColumnNode> columns,
            long head, LakeFileSystem files, String tablePath, long dataFileId)
    {
        String dataName = "ducklake-" + uuidV7() + ".parquet";
        String dataFile = LakeFileSystem.resolve(tablePath, dataName);
        long rows = 0;
        long minSnapshot = Long.MAX_VALUE;
        long maxSnapshot = Long.MIN_VALUE;
        long minRowId = Long.MAX_VALUE;
        List<DeleteRowWriteSupport.Deletion> deletions = new ArrayList<>();
        FlushedColumnStats stats = new FlushedColumnStats(columns);
        RowIdMultiset writtenRowIds = new RowIdMultiset();
        try (InlineScan scan = InlineReader.scanVersion(snapshot.reader(), tableId, version, new InlineSelection.ForFlush(head), Optional.empty(), WINDOW_ROWS, allocator)) {
            FlushFileWriter<ArrowRowWriteSupport.RowRef> writer = null;
            try {
                while (scan.hasNext()) {
                    InlineBatch batch = scan.next();
                    List<FieldVector> vectors = batch.root().getFieldVectors();
                    List<FieldVector> user = vectors.subList(0, vectors.size() - 3);
                    BigIntVector rowIds = (BigIntVector) batch.root().getVector(InlineScan.ROW_ID.getName());
                    BigIntVector begins = (BigIntVector) batch.root().getVector(InlineScan.BEGIN_SNAPSHOT.getName());
                    BigIntVector ends = (BigIntVector) batch.root().getVector(InlineScan.END_SNAPSHOT.getName());
                    if (writer == null) {
                        List<Field> fields = user.stream().map(FieldVector::getField).toList();
                        writer = FlushFileWriter.create(files, dataFile, new ArrowRowWriteSupport(ParquetSchemas.dataFile(fields, columns)));
                    }
                    for (int i = 0; i < batch.root().getRowCount(); i++) {
                        long begin = begins.get(i);
                        writer.write(new ArrowRowWriteSupport.RowRef(user, i, rowIds.get(i), begin));
                        stats.add(user, i);
                        writtenRowIds.add(rowIds.get(i));
                        if (!ends.isNull(i) && ends.get(i) <= head) {
                            deletions.add(new DeleteRowWriteSupport.Deletion(rows, ends.get(i)));
                        }
                        minSnapshot = Math.min(minSnapshot, begin);
                        maxSnapshot = Math.max(maxSnapshot, begin);
                        minRowId = Math.min(minRowId, rowIds.get(i));
                        rows++;
                    }
                }
            }
            finally {
                if (writer != null) {
                    writer.close();
                }
            }
            if (rows == 0) {
                return null;
            }
            if (rows != scan.selectedRows()) {
                throw new CorruptionException("flush of table " + tableId + " version " + version + " wrote " + rows + " rows but "
                        + "selected " + scan.selectedRows() + " from the inline chunks; nothing was committed");
            }
            Row dataRow = Row.of(TableKind.DATA_FILE, dataFileId, tableId, minSnapshot, null, null, dataName, true, "parquet", rows,
                    writer.sizeBytes(), writer.footerSize(), minRowId, null, null, null, maxSnapshot);
            Optional<Row> deleteRow = Optional.empty();
            long nextFileId = dataFileId + 1;
            if (!deletions.isEmpty()) {
                String deleteName = "ducklake-" + uuidV7() + "-delete.parquet";
                FlushFileWriter<DeleteRowWriteSupport.Deletion> deleteWriter = FlushFileWriter.create(files, LakeFileSystem.resolve(tablePath, deleteName),
                        new DeleteRowWriteSupport(dataFile));
                try (deleteWriter) {
                    for (DeleteRowWriteSupport.Deletion deletion : deletions) {
                        deleteWriter.write(deletion);
                    }
                }
                long minEnd = deletions.stream().mapToLong(DeleteRowWriteSupport.Deletion::snapshotId).min().orElseThrow();
                deleteRow = Optional.of(Row.of(TableKind.DELETE_FILE, nextFileId++, tableId, minEnd, null, dataFileId, deleteName, true,
                        "parquet", (long) deletions.size(), deleteWriter.sizeBytes(), deleteWriter.footerSize(), null, null));
            }
            return new StagedPlan(new FlushedFile(tableId, version, dataFileId, dataFile, rows, deletions.size()), dataRow,
                    stats.rows(dataFileId, tableId, writer.columnSizes()), deleteRow, nextFileId, tableId, version, writtenRowIds);
        }
        catch (IOException e) {
            throw new StoreException("writing flushed Parquet for table " + tableId + " under " + tablePath + " failed: " + e.getMessage()
                    + "; " + NOTHING_COMMITTED, e);
        }
    }

    private static void commit(MoraineCatalog catalog, Row head, List<StagedPlan> plans, List<DeleteFileFlush.Plan> deletePlans, long nextFileId)
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
            transaction.insert(plan.dataFile());
            plan.columnStats().forEach(transaction::insert);
            plan.deleteFile().ifPresent(transaction::insert);
            transaction.drainInlined(plan.tableId(), plan.schemaVersion(), flushSnapshot, plan.writtenRowIds());
            newestVersion.merge(plan.tableId(), plan.schemaVersion(), Math::max);
        }
        // Superseded inlined tables emptied by the flush are deregistered, as DuckLake's clean-up does.
        for (StagedPlan plan : plans) {
            if (plan.schemaVersion() < newestVersion.get(plan.tableId())) {
                transaction.deregisterInlinedTable(plan.tableId(), plan.schemaVersion());
            }
        }
        transaction.commit();
    }

    /** A time-ordered UUID (version 7), as DuckLake names its files. */
    static UUID uuidV7()
    {
        long millis = System.currentTimeMillis();
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        long high = (millis << 16) | 0x7000L | (random.nextLong() & 0x0FFFL);
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low);
    }
}
