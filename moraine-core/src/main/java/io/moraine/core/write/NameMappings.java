package io.moraine.core.write;

import io.moraine.core.catalog.NameMapEntry;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.tx.StagedTransaction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The name mappings of a commit's mapped data files, as DuckLake's {@code AddNameMap} and {@code GetNewNameMaps} write
 * them: a mapping compatible with one the table already has is reused; otherwise each new mapping takes a
 * {@code mapping_id} from {@code next_file_id} (before any data file of the commit takes one) and is written as one
 * {@code ducklake_column_mapping} row ({@code map_by_name}) and one {@code ducklake_name_mapping} row per entry, entries
 * numbered from 0 depth-first with their parent's number.
 */
final class NameMappings
{
    private final CommitAttempt attempt;
    private final Map<Long, List<Existing>> existing = new HashMap<>();
    private final List<Existing> created = new ArrayList<>();

    NameMappings(CommitAttempt attempt)
    {
        this.attempt = attempt;
    }

    /** The mapping id of {@code entries} for table {@code tableId}, staging a new mapping when none is compatible. */
    long mappingId(StagedTransaction tx, long tableId, List<NameMapEntry> entries, CommitAttempt.Counters counters)
    {
        for (Existing candidate : existingOf(tableId)) {
            if (NameMapEntry.compatible(candidate.entries, entries)) {
                return candidate.mappingId;
            }
        }
        for (Existing candidate : created) {
            if (candidate.tableId == tableId && NameMapEntry.compatible(candidate.entries, entries)) {
                return candidate.mappingId;
            }
        }
        long mappingId = counters.nextFileId++;
        tx.insert(Row.of(TableKind.COLUMN_MAPPING, mappingId, tableId, "map_by_name"));
        long[] next = {0};
        for (NameMapEntry entry : entries) {
            stage(tx, mappingId, entry, null, next);
        }
        created.add(new Existing(tableId, mappingId, entries));
        return mappingId;
    }

    private static void stage(StagedTransaction tx, long mappingId, NameMapEntry entry, Long parent, long[] next)
    {
        long columnId = next[0]++;
        tx.insert(Row.of(TableKind.NAME_MAPPING, mappingId, columnId, entry.sourceName(), entry.targetFieldId(), parent, entry.hivePartition()));
        for (NameMapEntry child : entry.children()) {
            stage(tx, mappingId, child, columnId, next);
        }
    }

    private List<Existing> existingOf(long tableId)
    {
        return existing.computeIfAbsent(tableId, id -> {
            List<Existing> mappings = new ArrayList<>();
            if (attempt.base.reader() == null) {
                return mappings;
            }
            List<Row> columnMappings;
            try (var rows = attempt.base.everyVersion(TableKind.COLUMN_MAPPING, id)) {
                columnMappings = rows.toList();
            }
            for (Row mapping : columnMappings) {
                long mappingId = mapping.getLong("mapping_id");
                List<Row> columns;
                try (var rows = attempt.base.everyVersion(TableKind.NAME_MAPPING, mappingId)) {
                    columns = rows.toList();
                }
                mappings.add(new Existing(id, mappingId, tree(columns, null)));
            }
            return mappings;
        });
    }

    private static List<NameMapEntry> tree(List<Row> columns, Long parent)
    {
        List<NameMapEntry> entries = new ArrayList<>();
        for (Row column : columns) {
            Object columnParent = column.get("parent_column");
            if (parent == null ? columnParent == null : parent.equals(columnParent)) {
                entries.add(new NameMapEntry(column.getString("source_name"), column.getLong("target_field_id"),
                        tree(columns, column.getLong("column_id")), Boolean.TRUE.equals(column.get("is_partition"))));
            }
        }
        return entries;
    }

    private record Existing(long tableId, long mappingId, List<NameMapEntry> entries) {}
}
