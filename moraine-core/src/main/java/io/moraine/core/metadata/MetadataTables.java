package io.moraine.core.metadata;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.catalog.RowScope;
import io.moraine.core.row.SnapshotChanges;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.row.TableKind;
import io.moraine.core.scan.FilePartitionValues;
import io.moraine.core.scan.InlinedFileDeletes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The rows of a table's metadata tables ({@link MetadataTableType}) at a snapshot, and of the raw {@code ducklake_*}
 * tables. Values are of the Java class of their column's {@link io.moraine.core.row.ColumnType}; NULL is null.
 */
public final class MetadataTables
{
    private MetadataTables() {}

    /**
     * The rows of {@code type} for table {@code tableId} as {@code snapshot} sees it; paths resolve under {@code dataPath}
     * (the catalog's {@code data_path} when empty).
     */
    public static List<List<Object>> rows(MetadataTableType type, CatalogSnapshot snapshot, long tableId, Optional<String> dataPath)
    {
        return switch (type) {
            case SNAPSHOTS -> snapshots(snapshot);
            case CURRENT_SNAPSHOT -> snapshots(snapshot).stream().filter(row -> row.getFirst().equals(snapshot.id())).toList();
            case SNAPSHOT_CHANGES -> snapshotChanges(snapshot, tableId);
            case FILES -> files(snapshot, tableId, dataPath).stream().map(FileRow::values).toList();
            case PARTITIONS -> partitions(files(snapshot, tableId, dataPath));
        };
    }

    /** Every row of a raw catalog table, current and history, as {@code bin/moraine dump} writes them. */
    public static RowCursor rawRows(MoraineCatalog catalog, TableKind kind)
    {
        return catalog.scan(kind, RowScope.ALL);
    }

    private static List<List<Object>> snapshots(CatalogSnapshot snapshot)
    {
        Map<Long, Row> changes = new HashMap<>();
        try (RowCursor rows = snapshot.visible(TableKind.SNAPSHOT_CHANGES)) {
            rows.forEachRemaining(row -> changes.put(row.getLong("snapshot_id"), row));
        }
        List<List<Object>> result = new ArrayList<>();
        for (Row row : snapshotRows(snapshot)) {
            Optional<Row> change = Optional.ofNullable(changes.get(row.getLong("snapshot_id")));
            result.add(Arrays.asList(row.get("snapshot_id"), row.get("snapshot_time"), row.get("schema_version"),
                    change.map(c -> c.get("changes_made")).orElse(null), change.map(c -> c.get("author")).orElse(null),
                    change.map(c -> c.get("commit_message")).orElse(null), change.map(c -> c.get("commit_extra_info")).orElse(null)));
        }
        return result;
    }

    /** The snapshots up to the read snapshot that were not expired, by id. */
    private static List<Row> snapshotRows(CatalogSnapshot snapshot)
    {
        List<Row> rows = new ArrayList<>();
        try (RowCursor cursor = snapshot.visible(TableKind.SNAPSHOT)) {
            cursor.forEachRemaining(row -> {
                if (row.getLong("snapshot_id") <= snapshot.id()) {
                    rows.add(row);
                }
            });
        }
        rows.sort(java.util.Comparator.comparing(row -> row.getLong("snapshot_id")));
        return rows;
    }

    /**
     * The entries of {@code changes_made} that concern the table: those whose value is its id, and the
     * {@code created_table} entry of the snapshot that created it (that entry names the table instead).
     */
    private static List<List<Object>> snapshotChanges(CatalogSnapshot snapshot, long tableId)
    {
        long created = Long.MAX_VALUE;
        try (RowCursor versions = snapshot.everyVersion(TableKind.TABLE, tableId)) {
            while (versions.hasNext()) {
                created = Math.min(created, versions.next().getLong("begin_snapshot"));
            }
        }
        Map<Long, Row> changesById = new HashMap<>();
        try (RowCursor rows = snapshot.visible(TableKind.SNAPSHOT_CHANGES)) {
            rows.forEachRemaining(row -> changesById.put(row.getLong("snapshot_id"), row));
        }
        List<List<Object>> result = new ArrayList<>();
        for (Row snapshotRow : snapshotRows(snapshot)) {
            long id = snapshotRow.getLong("snapshot_id");
            Row changes = changesById.get(id);
            if (changes == null) {
                continue;
            }
            for (SnapshotChanges.Change change : SnapshotChanges.parse(changes.getString("changes_made"))) {
                boolean concerns = change.id().isPresent() ? change.id().getAsLong() == tableId && !change.type().endsWith("_schema") && !change.type().endsWith("_view")
                        : change.type().equals("created_table") && id == created;
                if (concerns) {
                    result.add(Arrays.asList(id, snapshotRow.get("snapshot_time"), change.type(), change.value(), changes.get("author"), changes.get("commit_message")));
                }
            }
        }
        return result;
    }

    /** One visible data file with the delete file that applies to it (the newest visible one) and its partition values. */
    private record FileRow(Row file, String path, String partitionValues, Optional<Row> deleteFile, Optional<String> deletePath, long inlinedDeletes)
    {
        List<Object> values()
        {
            return Arrays.asList(file.get("data_file_id"), path, file.get("file_format"), file.get("record_count"), file.get("file_size_bytes"),
                    file.get("footer_size"), file.get("row_id_start"), file.get("begin_snapshot"), file.get("partial_max"), file.get("file_order"),
                    file.get("partition_id"), partitionValues,
                    deleteFile.map(row -> row.get("delete_file_id")).orElse(null), deletePath.orElse(null),
                    deleteFile.map(row -> row.get("format")).orElse(null), deleteFile.map(row -> row.get("delete_count")).orElse(null),
                    deleteFile.map(row -> row.get("file_size_bytes")).orElse(null), deleteFile.map(row -> row.get("begin_snapshot")).orElse(null),
                    inlinedDeletes);
        }
    }

    private static List<FileRow> files(CatalogSnapshot snapshot, long tableId, Optional<String> dataPath)
    {
        String tablePath = snapshot.tablePath(dataPath.map(path -> path.endsWith("/") ? path : path + "/").orElseGet(() -> snapshot.facts().get(StoreFacts.DATA_PATH)),
                tableId);
        Map<Long, Row> deleteFiles = new HashMap<>();
        try (RowCursor rows = snapshot.deleteFiles(tableId)) {
            rows.forEachRemaining(row -> deleteFiles.merge(row.getLong("data_file_id"), row,
                    (left, right) -> left.getLong("begin_snapshot") >= right.getLong("begin_snapshot") ? left : right));
        }
        Map<Long, List<Row>> partitionValueRows = new HashMap<>();
        try (RowCursor rows = snapshot.filePartitionValues(tableId)) {
            rows.forEachRemaining(row -> partitionValueRows.computeIfAbsent(row.getLong("data_file_id"), id -> new ArrayList<>()).add(row));
        }
        Map<Long, long[]> inlinedDeletes = InlinedFileDeletes.positionsAt(snapshot.reader(), tableId, snapshot.id());
        PartitionNames names = new PartitionNames(snapshot, tableId);
        List<FileRow> files = new ArrayList<>();
        try (RowCursor rows = snapshot.dataFiles(tableId)) {
            while (rows.hasNext()) {
                Row file = rows.next();
                long fileId = file.getLong("data_file_id");
                Optional<Row> deleteFile = Optional.ofNullable(deleteFiles.get(fileId));
                Long partitionId = file.getLong("partition_id");
                String values = partitionId == null ? null : names.text(partitionId, FilePartitionValues.of(partitionValueRows.getOrDefault(fileId, List.of())));
                files.add(new FileRow(file, CatalogPaths.filePath(tablePath, file), values, deleteFile, deleteFile.map(row -> CatalogPaths.filePath(tablePath, row)),
                        inlinedDeletes.getOrDefault(fileId, new long[0]).length));
            }
        }
        return files;
    }

    private static List<List<Object>> partitions(List<FileRow> files)
    {
        record Key(Long partitionId, String values) {}
        Map<Key, long[]> totals = new LinkedHashMap<>();
        for (FileRow file : files) {
            long[] total = totals.computeIfAbsent(new Key(file.file().getLong("partition_id"), file.partitionValues()), key -> new long[5]);
            total[0]++;
            total[1] += file.file().getLong("record_count");
            total[2] += file.file().getLong("file_size_bytes");
            if (file.deleteFile().isPresent()) {
                total[3]++;
                Long deletes = file.deleteFile().get().getLong("delete_count");
                total[4] += deletes == null ? 0 : deletes;
            }
            total[4] += file.inlinedDeletes();
        }
        List<List<Object>> rows = new ArrayList<>();
        totals.forEach((key, total) -> rows.add(Arrays.asList(key.partitionId(), key.values(), total[0], total[1], total[2], total[3], total[4])));
        rows.sort(java.util.Comparator.comparing((List<Object> row) -> (Long) row.get(0), java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()))
                .thenComparing(row -> (String) row.get(1), java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder())));
        return rows;
    }

    /** Partition keys named as {@code column} (identity) or {@code transform(column)}, by the columns at the snapshot. */
    private static final class PartitionNames
    {
        private final CatalogSnapshot snapshot;
        private final long tableId;
        private final Map<Long, String> columnNames = new HashMap<>();
        private final Map<Long, Map<Integer, String>> keys = new HashMap<>();

        PartitionNames(CatalogSnapshot snapshot, long tableId)
        {
            this.snapshot = snapshot;
            this.tableId = tableId;
            snapshot.columns(tableId).forEach(column -> columnNames.put(column.getLong("column_id"), column.getString("column_name")));
        }

        /**
         * {@code year(ts)=2024, kind=k1}; a NULL value is shown as {@code NULL}, and so is a key without a row. A key
         * with several rows ({@link FilePartitionValues}) shows them all, in the order written: {@code day(dt)=[2024, 2, 10]}.
         */
        String text(long partitionId, FilePartitionValues values)
        {
            Map<Integer, String> spec = keys.computeIfAbsent(partitionId, this::keyNames);
            List<String> parts = new ArrayList<>();
            for (Map.Entry<Integer, String> key : new TreeMap<>(spec).entrySet()) {
                List<String> texts = values.values(key.getKey()).stream().map(value -> value == null ? "NULL" : value).toList();
                parts.add(key.getValue() + "=" + (texts.isEmpty() ? "NULL" : texts.size() == 1 ? texts.getFirst() : texts.toString()));
            }
            return String.join(", ", parts);
        }

        private Map<Integer, String> keyNames(long partitionId)
        {
            Map<Integer, String> names = new HashMap<>();
            for (Row key : snapshot.partitionColumns(tableId, partitionId)) {
                long columnId = key.getLong("column_id");
                String column = columnNames.getOrDefault(columnId, "column_" + columnId);
                String transform = key.getString("transform");
                names.put(key.getLong("partition_key_index").intValue(), transform == null || transform.equalsIgnoreCase("identity") ? column : transform + "(" + column + ")");
            }
            return names;
        }
    }
}
