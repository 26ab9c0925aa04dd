package io.moraine.inline;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.RowCursor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * Plans a table's data files at a snapshot with one scan each of its data files, delete files and inlined file
 * deletes, however many files it has: the per-file work a reader does later touches only the files themselves.
 */
public final class DataFilePlanner
{
    private DataFilePlanner() {}

    /** The visible data files of {@code tableId} whose {@code ducklake_data_file} row {@code include} accepts, in catalog order. */
    public static List<PlannedDataFile> plan(CatalogSnapshot snapshot, long tableId, String dataPath, Predicate<Row> include)
    {
        String tablePath = snapshot.tablePath(dataPath, tableId);
        Map<Long, List<PlannedDataFile.DeleteFile>> deleteFiles = new HashMap<>();
        try (RowCursor rows = snapshot.deleteFiles(tableId)) {
            rows.forEachRemaining(row -> deleteFiles.computeIfAbsent(row.getLong("data_file_id"), id -> new ArrayList<>()).add(new PlannedDataFile.DeleteFile(
                    CatalogPaths.filePath(tablePath, row), optional(row.getLong("file_size_bytes")), row.getLong("begin_snapshot"), row.getString("format"))));
        }
        Map<Long, long[]> inlinedDeletes = InlineFileDeletes.positionsAt(snapshot.reader(), tableId, snapshot.id());
        List<PlannedDataFile> planned = new ArrayList<>();
        try (RowCursor rows = snapshot.dataFiles(tableId)) {
            rows.forEachRemaining(row -> {
                long id = row.getLong("data_file_id");
                if (include.test(row)) {
                    planned.add(new PlannedDataFile(id, CatalogPaths.filePath(tablePath, row), row.getLong("file_size_bytes"), row.getLong("record_count"),
                            optional(row.getLong("footer_size")),
                            optional(row.getLong("partial_max")), deleteFiles.getOrDefault(id, List.of()), inlinedDeletes.getOrDefault(id, new long[0])));
                }
            });
        }
        return planned;
    }

    private static OptionalLong optional(Long value)
    {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
