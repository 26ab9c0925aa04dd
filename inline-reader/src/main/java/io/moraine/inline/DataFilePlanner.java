package io.moraine.inline;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.catalog.TableKind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.LongPredicate;

/**
 * Plans a table's data files at a snapshot with one scan each of its data files, delete files and inlined file
 * deletes, however many files it has: the per-file work a reader does later touches only the files themselves.
 */
public final class DataFilePlanner
{
    private DataFilePlanner() {}

    /** The visible data files of {@code tableId} that {@code include} accepts (by data_file_id), in catalog order. */
    public static List<PlannedDataFile> plan(CatalogSnapshot snapshot, long tableId, String dataPath, LongPredicate include)
    {
        String tablePath = tablePath(snapshot, dataPath, tableId);
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
                if (include.test(id)) {
                    planned.add(new PlannedDataFile(id, CatalogPaths.filePath(tablePath, row), row.getLong("file_size_bytes"), row.getLong("record_count"),
                            optional(row.getLong("footer_size")),
                            optional(row.getLong("partial_max")), deleteFiles.getOrDefault(id, List.of()), inlinedDeletes.getOrDefault(id, new long[0])));
                }
            });
        }
        return planned;
    }

    /** Where the table's relative file paths resolve: its schema's and its own path under {@code dataPath}. */
    public static String tablePath(CatalogSnapshot snapshot, String dataPath, long tableId)
    {
        Row table = snapshot.table(tableId).orElseThrow(() -> new IllegalArgumentException("table " + tableId + " is not visible at snapshot " + snapshot.id()));
        Row schema = snapshot.visible(TableKind.SCHEMA, table.getLong("schema_id")).toList().getFirst();
        return CatalogPaths.tablePath(dataPath, schema, table);
    }

    private static OptionalLong optional(Long value)
    {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
