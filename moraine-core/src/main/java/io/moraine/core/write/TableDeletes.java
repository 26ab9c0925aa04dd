package io.moraine.core.write;

import io.moraine.core.write.files.DataFileNames;
import io.moraine.core.write.files.ParquetFileWriter;
import io.moraine.core.write.files.DeleteRowWriteSupport;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.CommitConflictException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.StoreException;
import io.moraine.core.inline.InlineArrow;
import io.moraine.core.inline.read.InlineBatch;
import io.moraine.core.inline.read.InlineReader;
import io.moraine.core.inline.read.InlineScan;
import io.moraine.core.inline.read.InlineSelection;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.scan.DeleteFiles;
import io.moraine.core.scan.InlinedFileDeletes;
import io.moraine.core.tx.InlineOperation;
import io.moraine.core.tx.StagedTransaction;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The deletes of a commit, staged as DuckLake 1.5.5's {@code FlushDelete} writes them (reference §1.5; checked against
 * DuckDB): committed inlined rows are ended by row id ({@code inlined_delete}); per data file, at most the table's
 * inlining limit of new positions go to the inlined file deletes ({@code inlined_delete}), even when the file has a
 * delete file; otherwise a file whose delete-file rows plus the new ones make its {@code record_count} is retired whole
 * ({@code deleted_from_table}); otherwise a delete file is written ({@code deleted_from_table}): a plain one
 * ({@code file_path, pos}) when the file had none, else a cumulative partial one holding the old positions with their
 * snapshots and the new ones with this commit's, which replaces the old row (physically deleted, its file scheduled for
 * deletion). Inlined file deletes are never folded into a delete file, nor counted for retiring a file (DuckLake does
 * neither). Delete files are written per attempt, so a retried commit writes them again with its own snapshot id.
 */
final class TableDeletes
{
    private TableDeletes() {}

    static void stage(CommitAttempt attempt, StagedTransaction tx, ChangesMade changes, List<TableDraft> tables, CommitAttempt.Counters counters)
    {
        List<TableDraft> withDeletes = tables.stream().filter(TableDraft::hasDeletes).sorted((a, b) -> Long.compare(a.tableId, b.tableId)).toList();
        for (TableDraft table : withDeletes) {
            if (table.created) {
                throw new InvalidArgumentException("table " + table.qualifiedName() + " is created in this transaction and has no committed rows to delete");
            }
            new TableDeletes.Planner(attempt, tx, changes, table, counters).stage();
        }
    }

    /** The ids of the data files at {@code paths}, live at the attempt's base: a path names a file by its full path. */
    static Map<String, Long> dataFileIds(CommitAttempt attempt, TableDraft table, Set<String> paths)
    {
        if (table.created) {
            throw new InvalidArgumentException("table " + table.qualifiedName() + " is created in this transaction and has no committed rows to delete");
        }
        String tablePath = attempt.tablePath(table);
        Map<String, Long> byPath = new HashMap<>();
        try (var files = attempt.base.dataFiles(table.tableId)) {
            files.forEachRemaining(row -> byPath.put(canonical(CatalogPaths.filePath(tablePath, row)), row.getLong("data_file_id")));
        }
        Map<String, Long> ids = new HashMap<>();
        for (String path : paths) {
            Long id = byPath.get(canonical(path));
            if (id == null) {
                throw new NotFoundException("no live data file of table " + table.qualifiedName() + " at snapshot " + attempt.base.id() + " is at " + path
                        + "; delete only rows a scan of that snapshot returned");
            }
            ids.put(path, id);
        }
        return ids;
    }

    /** Stages inlined rows with the row ids they keep: one chunk per run of consecutive row ids. */
    static void insertKeepingRowIds(StagedTransaction tx, long tableId, long schemaVersion, long snapshotId, InlinedRowsWithIds kept)
    {
        VectorSchemaRoot rows = kept.rows();
        long[] ids = kept.rowIds();
        int runStart = 0;
        for (int row = 1; row <= ids.length; row++) {
            if (row == ids.length || ids[row] != ids[row - 1] + 1) {
                try (VectorSchemaRoot run = rows.slice(runStart, row - runStart)) {
                    tx.stage(new InlineOperation.InsertChunk(tableId, schemaVersion, snapshotId, ids[runStart], row - runStart,
                            InlineArrow.encodeChunk(ids[runStart], run)));
                }
                runStart = row;
            }
        }
    }

    /** What the deletes of one table read at the base: per data file, its delete-file row and inlined deletes. */
    record FileState(Optional<Row> dataFile, Optional<Row> deleteFile, Map<Long, Long> inlinedDeletes) {}

    static FileState fileState(CatalogSnapshot snapshot, long tableId, long dataFileId, Map<Long, TreeMap<Long, Long>> inlined)
    {
        Optional<Row> deleteFile;
        try (var files = snapshot.deleteFiles(tableId)) {
            deleteFile = files.toList().stream().filter(row -> row.getLong("data_file_id") == dataFileId).findFirst();
        }
        return new FileState(snapshot.dataFile(tableId, dataFileId), deleteFile, inlined.getOrDefault(dataFileId, new TreeMap<>()));
    }

    /**
     * Pitfall 10: a retried commit's deletes must find each data file they delete from as they read it — live, with the
     * same delete-file row and the same inlined deletes — or the positions they computed may no longer be the file's.
     */
    static void checkUnchanged(CommitAttempt read, CommitAttempt head)
    {
        for (TableDraft table : read.tablesWithDeletes()) {
            Map<Long, TreeMap<Long, Long>> readInlined = InlinedFileDeletes.entriesAt(read.base.reader(), table.tableId, read.base.id());
            Map<Long, TreeMap<Long, Long>> headInlined = InlinedFileDeletes.entriesAt(head.base.reader(), table.tableId, head.base.id());
            for (long dataFileId : filesDeletedFrom(read, table)) {
                FileState before = fileState(read.base, table.tableId, dataFileId, readInlined);
                FileState now = fileState(head.base, table.tableId, dataFileId, headInlined);
                String changed = now.dataFile().isEmpty() ? "was retired"
                        : !deleteFileId(before).equals(deleteFileId(now)) ? "got another delete file"
                        : !before.inlinedDeletes().equals(now.inlinedDeletes()) ? "got other inlined deletes" : null;
                if (changed != null) {
                    throw new CommitConflictException("Transaction conflict: data file " + dataFileId + " of table " + table.qualifiedName() + " "
                            + changed + " in a commit after snapshot " + read.base.id() + " (head " + head.base.id()
                            + "), and this transaction deletes rows of it; nothing was committed. Begin a new transaction at the current head and retry");
                }
            }
        }
    }

    private static Optional<Long> deleteFileId(FileState state)
    {
        return state.deleteFile().map(row -> row.getLong("delete_file_id"));
    }

    private static List<Long> filesDeletedFrom(CommitAttempt attempt, TableDraft table)
    {
        if (!table.truncated) {
            return List.copyOf(table.deletedPositions.keySet());
        }
        try (var files = attempt.base.dataFiles(table.tableId)) {
            return files.toList().stream().map(row -> row.getLong("data_file_id")).toList();
        }
    }

    /** The deletes of one table in one attempt. */
    private static final class Planner
    {
        private final CommitAttempt attempt;
        private final StagedTransaction tx;
        private final ChangesMade changes;
        private final TableDraft table;
        private final CommitAttempt.Counters counters;
        private final long snapshotId;
        private final long limit;
        private final String tablePath;

        Planner(CommitAttempt attempt, StagedTransaction tx, ChangesMade changes, TableDraft table, CommitAttempt.Counters counters)
        {
            this.attempt = attempt;
            this.tx = tx;
            this.changes = changes;
            this.table = table;
            this.counters = counters;
            this.snapshotId = attempt.snapshotId;
            this.limit = attempt.data().inliningLimit(table);
            this.tablePath = attempt.tablePath(table);
        }

        void stage()
        {
            stageInlinedRows();
            Map<Long, TreeMap<Long, Long>> inlined = InlinedFileDeletes.entriesAt(attempt.base.reader(), table.tableId, attempt.base.id());
            for (long dataFileId : filesDeletedFrom(attempt, table)) {
                stageFile(dataFileId, fileState(attempt.base, table.tableId, dataFileId, inlined));
            }
        }

        private void stageInlinedRows()
        {
            if (table.deletedInlinedRowIds.isEmpty() && !table.truncated) {
                return;
            }
            TreeSet<Long> live = liveInlinedRowIds();
            List<Long> ended = new ArrayList<>();
            if (table.truncated) {
                ended.addAll(live);
            }
            else {
                for (long rowId : table.deletedInlinedRowIds) {
                    if (!live.contains(rowId)) {
                        throw new NotFoundException("inlined row " + rowId + " of table " + table.qualifiedName() + " is not live at snapshot "
                                + attempt.base.id() + "; delete only rows a scan of that snapshot returned");
                    }
                    ended.add(rowId);
                }
            }
            if (!ended.isEmpty()) {
                tx.endInlinedRows(table.tableId, ended, snapshotId);
                changes.add("inlined_delete", table.tableId);
            }
        }

        private TreeSet<Long> liveInlinedRowIds()
        {
            TreeSet<Long> rowIds = new TreeSet<>();
            try (RootAllocator allocator = new RootAllocator();
                    InlineScan scan = InlineReader.scan(attempt.base.reader(), table.tableId, new InlineSelection.AtSnapshot(attempt.base.id()),
                            Optional.of(List.of()), InlineReader.DEFAULT_WINDOW_ROWS, allocator)) {
                while (scan.hasNext()) {
                    InlineBatch batch = scan.next();
                    BigIntVector ids = (BigIntVector) batch.root().getVector(InlineScan.ROW_ID.getName());
                    for (int row = 0; row < batch.root().getRowCount(); row++) {
                        rowIds.add(ids.get(row));
                    }
                }
            }
            return rowIds;
        }

        private void stageFile(long dataFileId, FileState state)
        {
            Row dataFile = state.dataFile().orElseThrow(() -> new NotFoundException("data file " + dataFileId + " of table " + table.qualifiedName()
                    + " is not live at snapshot " + attempt.base.id() + "; delete only rows a scan of that snapshot returned"));
            long recordCount = dataFile.getLong("record_count");
            if (table.truncated && state.deleteFile().isEmpty() && state.inlinedDeletes().isEmpty() && recordCount > limit) {
                // the common truncate: a file without deletes is retired whole, without listing its positions
                changes.add("deleted_from_table", table.tableId);
                tx.endRow(TableKind.DATA_FILE, snapshotId, table.tableId, dataFileId);
                return;
            }
            String dataFilePath = canonical(CatalogPaths.filePath(tablePath, dataFile));
            TreeMap<Long, Long> existing = new TreeMap<>();
            state.deleteFile().ifPresent(row -> readDeleteFile(row, existing));
            TreeSet<Long> positions = new TreeSet<>();
            if (table.truncated) {
                for (long position = 0; position < recordCount; position++) {
                    positions.add(position);
                }
            }
            else {
                positions.addAll(table.deletedPositions.get(dataFileId));
            }
            if (!positions.isEmpty() && positions.last() >= recordCount) {
                throw new InvalidArgumentException("position " + positions.last() + " is past the end of data file " + dataFileId + " of table "
                        + table.qualifiedName() + ", which has " + recordCount + " rows");
            }
            // What a scan of the base does not return is not deleted again (DuckDB only deletes rows its scan saw).
            positions.removeAll(existing.keySet());
            positions.removeAll(state.inlinedDeletes().keySet());
            if (positions.isEmpty()) {
                return;
            }
            long tableId = table.tableId;
            if (positions.size() <= limit) {
                tx.deleteInlinedFileRows(tableId, dataFileId, List.copyOf(positions), snapshotId);
                changes.add("inlined_delete", tableId);
                return;
            }
            changes.add("deleted_from_table", tableId);
            long existingCount = state.deleteFile().map(row -> row.getLong("delete_count")).orElse(0L);
            if (existingCount + positions.size() == recordCount) {
                tx.endRow(TableKind.DATA_FILE, snapshotId, tableId, dataFileId);
                return;
            }
            boolean partial = state.deleteFile().isPresent();
            TreeMap<Long, Long> all = new TreeMap<>(existing);
            positions.forEach(position -> all.put(position, snapshotId));
            String name = DataFileNames.deleteFileName();
            String path = resolve(tablePath, name);
            ParquetFileWriter<DeleteRowWriteSupport.Deletion> writer = write(path, dataFilePath, partial, all);
            long begin = partial ? all.values().stream().mapToLong(Long::longValue).min().orElseThrow() : snapshotId;
            Long partialMax = partial ? all.values().stream().mapToLong(Long::longValue).max().orElseThrow() : null;
            tx.insert(Row.of(TableKind.DELETE_FILE, counters.nextFileId++, tableId, begin, null, dataFileId, name, true, "parquet",
                    (long) all.size(), writer.sizeBytes(), writer.footerSize(), null, partialMax));
            state.deleteFile().ifPresent(old -> {
                tx.delete(TableKind.DELETE_FILE, tableId, old.getLong("delete_file_id"));
                tx.insert(Row.of(TableKind.FILES_SCHEDULED_FOR_DELETION, old.getLong("delete_file_id"),
                        relativeTo(attempt.dataPath, CatalogPaths.filePath(tablePath, old)), true, Instant.now().truncatedTo(ChronoUnit.MICROS)));
            });
        }

        private void readDeleteFile(Row deleteFile, TreeMap<Long, Long> positions)
        {
            String path = CatalogPaths.filePath(tablePath, deleteFile);
            DeleteFiles.read(files().newInputFile(path, OptionalLong.of(deleteFile.getLong("file_size_bytes"))), deleteFile.getLong("begin_snapshot"),
                    positions::put);
        }

        private ParquetFileWriter<DeleteRowWriteSupport.Deletion> write(String path, String dataFilePath, boolean partial, TreeMap<Long, Long> positions)
        {
            try {
                ParquetFileWriter<DeleteRowWriteSupport.Deletion> writer = ParquetFileWriter.create(files(), path,
                        new DeleteRowWriteSupport(dataFilePath, partial));
                attempt.writtenFiles.add(path);
                try (writer) {
                    for (Map.Entry<Long, Long> position : positions.entrySet()) {
                        writer.write(new DeleteRowWriteSupport.Deletion(position.getKey(), position.getValue()));
                    }
                }
                return writer;
            }
            catch (IOException e) {
                throw new StoreException("writing delete file " + path + " of table " + table.qualifiedName() + " failed: " + e.getMessage(), e);
            }
        }

        private LakeFileSystem files()
        {
            if (attempt.files == null) {
                throw new InvalidArgumentException("deleting rows of data files of " + table.qualifiedName() + " reads and writes delete files; "
                        + "begin the transaction with the lake's LakeFileSystem (WriteTransaction.begin(catalog, files))");
            }
            return attempt.files;
        }
    }

    /** The path of {@code name} in {@code directory}: local files by their plain path, object-store files by URI. */
    private static String resolve(String directory, String name)
    {
        if (isLocal(directory)) {
            return LocalFileSystem.localPath(directory).resolve(name).toString();
        }
        return directory.endsWith("/") ? directory + name : directory + "/" + name;
    }

    /** How a delete file names its data file: a local path without {@code file://}, else the URI. */
    private static String canonical(String path)
    {
        return isLocal(path) ? LocalFileSystem.localPath(path).toString() : path;
    }

    private static boolean isLocal(String path)
    {
        return !path.contains("://") || path.startsWith("file://");
    }

    private static String relativeTo(String dataPath, String path)
    {
        return path.startsWith(dataPath) ? path.substring(dataPath.length()) : path;
    }
}
