package io.moraine.core.write;

import io.moraine.core.row.SnapshotChanges;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A commit's {@code ducklake_snapshot_changes.changes_made}, written as DuckLake writes it: entries joined by
 * {@code ,} without spaces, drops first, then creations (names double-quoted, a {@code "} doubled), then what changed
 * in existing tables, then inlined data; ids in ascending order within a kind, creations in the order made. Only the
 * kinds DuckDB's parser knows are written.
 */
final class ChangesMade
{
    /** The kinds by id, in the order DuckLake writes them. */
    private static final List<String> ID_KINDS_FIRST = List.of("dropped_schema", "dropped_table", "dropped_view");
    private static final List<String> ID_KINDS_AFTER_CREATIONS = List.of("inserted_into_table", "deleted_from_table", "altered_table",
            "altered_view", "inlined_insert", "inlined_delete", "inline_flush", "merge_adjacent", "rewrite_delete");

    private final Map<String, TreeSet<Long>> byId = new TreeMap<>();
    private final List<String> creations = new ArrayList<>();

    void add(String kind, long id)
    {
        if (!ID_KINDS_FIRST.contains(kind) && !ID_KINDS_AFTER_CREATIONS.contains(kind)) {
            throw new IllegalArgumentException("not a DuckLake change kind: " + kind);
        }
        byId.computeIfAbsent(kind, ignored -> new TreeSet<>()).add(id);
    }

    void createdSchema(String schema)
    {
        creations.add("created_schema:" + quoted(schema));
    }

    void createdTable(String schema, String table)
    {
        creations.add("created_table:" + quoted(schema) + "." + quoted(table));
    }

    void createdView(String schema, String view)
    {
        creations.add("created_view:" + quoted(schema) + "." + quoted(view));
    }

    boolean isEmpty()
    {
        return byId.isEmpty() && creations.isEmpty();
    }

    /** The entries, parsed back as readers see them. */
    List<SnapshotChanges.Change> entries()
    {
        return SnapshotChanges.parse(text());
    }

    /** The column's value: null when nothing changed, as DuckLake stores an empty list. */
    String text()
    {
        List<String> entries = new ArrayList<>();
        addIds(entries, ID_KINDS_FIRST);
        entries.addAll(creations);
        addIds(entries, ID_KINDS_AFTER_CREATIONS);
        return entries.isEmpty() ? null : String.join(",", entries);
    }

    private void addIds(List<String> entries, List<String> kinds)
    {
        for (String kind : kinds) {
            for (long id : byId.getOrDefault(kind, new TreeSet<>())) {
                entries.add(kind + ":" + id);
            }
        }
    }

    static String quoted(String name)
    {
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}
