package io.moraine.inline.flush;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.tx.StagedTransaction;
import io.moraine.core.scan.DeleteFiles;
import io.moraine.core.scan.InlinedFileDeletes;
import io.moraine.core.write.files.DeleteRowWriteSupport;
import io.moraine.core.write.files.ParquetFileWriter;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The second half of a flush (reference §3.4 b): a table's inlined deletes of Parquet rows become, per data file, one
 * cumulative partial delete file holding the file's existing deleted positions and the inlined ones, each with the
 * snapshot that deleted it. The replaced delete file's row is deleted physically and its file scheduled for deletion.
 */
final class DeleteFileFlush
{
    /** One data file's new cumulative delete file and what it replaces. */
    record Plan(long tableId, Row deleteFile, Optional<Row> replaced, Optional<Row> scheduled, long dataFileId, List<Long> inlinedPositions) {}

    private DeleteFileFlush() {}

    static List<Plan> plan(CatalogSnapshot snapshot, long tableId, String dataPath, String tablePath, LakeFileSystem files, long nextFileId)
            throws IOException
    {
        Map<Long, TreeMap<Long, Long>> inlined = InlinedFileDeletes.entriesAt(snapshot.reader(), tableId, snapshot.id());
        List<Plan> plans = new ArrayList<>();
        if (inlined.isEmpty()) {
            return plans;
        }
        List<Row> dataFiles = snapshot.dataFiles(tableId).toList();
        List<Row> deleteFiles = snapshot.deleteFiles(tableId).toList();
        for (Map.Entry<Long, TreeMap<Long, Long>> entry : inlined.entrySet()) {
            long dataFileId = entry.getKey();
            Optional<Row> dataFile = dataFiles.stream().filter(row -> row.getLong("data_file_id") == dataFileId).findFirst();
            if (dataFile.isEmpty()) {
                continue; // retired files keep their inlined deletes until expiry prunes them
            }
            TreeMap<Long, Long> positions = new TreeMap<>();
            Optional<Row> existing = deleteFiles.stream().filter(row -> row.getLong("data_file_id") == dataFileId).findFirst();
            if (existing.isPresent()) {
                DeleteFiles.read(files.newInputFile(CatalogPaths.filePath(tablePath, existing.get()), java.util.OptionalLong.empty()),
                        existing.get().getLong("begin_snapshot"), positions::put);
            }
            entry.getValue().forEach((position, snapshotId) -> positions.merge(position, snapshotId, Math::min));
            String dataFilePath = FlushPaths.canonical(CatalogPaths.filePath(tablePath, dataFile.get()));
            String name = io.moraine.core.write.files.DataFileNames.deleteFileName();
            ParquetFileWriter<DeleteRowWriteSupport.Deletion> writer = ParquetFileWriter.create(files, FlushPaths.resolve(tablePath, name),
                    new DeleteRowWriteSupport(dataFilePath, true));
            try (writer) {
                for (Map.Entry<Long, Long> position : positions.entrySet()) {
                    writer.write(new DeleteRowWriteSupport.Deletion(position.getKey(), position.getValue()));
                }
            }
            long min = positions.values().stream().mapToLong(Long::longValue).min().orElseThrow();
            long max = positions.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            Row deleteRow = Row.of(TableKind.DELETE_FILE, nextFileId++, tableId, min, null, dataFileId, name, true, "parquet",
                    (long) positions.size(), writer.sizeBytes(), writer.footerSize(), null, max);
            Optional<Row> scheduled = existing.map(old -> Row.of(TableKind.FILES_SCHEDULED_FOR_DELETION, old.getLong("delete_file_id"),
                    relativeTo(dataPath, CatalogPaths.filePath(tablePath, old)), true, Instant.now().truncatedTo(ChronoUnit.MICROS)));
            plans.add(new Plan(tableId, deleteRow, existing, scheduled, dataFileId, List.copyOf(entry.getValue().keySet())));
        }
        return plans;
    }

    static void stage(StagedTransaction transaction, Plan plan)
    {
        transaction.insert(plan.deleteFile());
        plan.replaced().ifPresent(old -> transaction.delete(TableKind.DELETE_FILE, old.getLong("table_id"), old.getLong("delete_file_id")));
        plan.scheduled().ifPresent(transaction::insert);
        transaction.removeInlinedFileDeletes(plan.tableId(), plan.dataFileId(), plan.inlinedPositions());
    }

    private static String relativeTo(String dataPath, String path)
    {
        return path.startsWith(dataPath) ? path.substring(dataPath.length()) : path;
    }
}
