package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.scan.InlinedFileDeletes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The current data files of a table as DuckLake's {@code GetFilesForCompaction} lists them: ordered by
 * {@code begin_snapshot}, {@code row_id_start}, {@code data_file_id}, each with the table's schema version at its
 * {@code begin_snapshot}, its partition values, its delete files (any, ended ones included) and whether inlined file
 * deletions visible at the snapshot hit it.
 */
final class CompactionSources
{
    private CompactionSources() {}

    static List<CompactionSource> of(CatalogSnapshot head, long tableId)
    {
        TreeMap<Long, Long> schemaVersions = new TreeMap<>();
        try (var rows = head.everyVersion(TableKind.SCHEMA_VERSIONS, tableId)) {
            while (rows.hasNext()) {
                Row row = rows.next();
                schemaVersions.merge(row.getLong("begin_snapshot"), row.getLong("schema_version"), Math::max);
            }
        }
        Map<Long, List<Row>> deleteFiles = new HashMap<>();
        try (var rows = head.everyVersion(TableKind.DELETE_FILE, tableId)) {
            while (rows.hasNext()) {
                Row row = rows.next();
                deleteFiles.computeIfAbsent(row.getLong("data_file_id"), ignored -> new ArrayList<>()).add(row);
            }
        }
        deleteFiles.values().forEach(list -> list.sort(Comparator.comparing((Row row) -> row.getLong("begin_snapshot"))));
        Map<Long, TreeMap<Long, String>> partitionValues = new HashMap<>();
        try (var rows = head.filePartitionValues(tableId)) {
            while (rows.hasNext()) {
                Row row = rows.next();
                partitionValues.computeIfAbsent(row.getLong("data_file_id"), ignored -> new TreeMap<>())
                        .put(row.getLong("partition_key_index"), row.getString("partition_value"));
            }
        }
        Map<Long, long[]> inlinedDeletions = InlinedFileDeletes.positionsAt(head.reader(), tableId, head.id());
        List<CompactionSource> sources = new ArrayList<>();
        try (var rows = head.dataFiles(tableId)) {
            while (rows.hasNext()) {
                Row file = rows.next();
                long id = file.getLong("data_file_id");
                var version = schemaVersions.floorEntry(file.getLong("begin_snapshot"));
                sources.add(new CompactionSource(file, version == null ? -1 : version.getValue(),
                        new ArrayList<>(partitionValues.getOrDefault(id, new TreeMap<>()).values()), deleteFiles.getOrDefault(id, List.of()),
                        inlinedDeletions.getOrDefault(id, new long[0]).length));
            }
        }
        sources.sort(Comparator.comparingLong(CompactionSource::beginSnapshot)
                .thenComparing(CompactionSource::rowIdStart, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparingLong(CompactionSource::id));
        return sources;
    }
}
