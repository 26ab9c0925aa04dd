package io.moraine.core.row;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * Parses {@code ducklake_snapshot_changes.changes_made}: {@code entry (',' entry)*} with {@code entry := type ':'
 * value}, where a value is an integer id or SQL-double-quoted names (commas inside quotes do not split). Types are
 * matched case-insensitively and returned lower-case.
 */
public final class SnapshotChanges
{
    /** One entry, e.g. {@code inserted_into_table:3} or {@code created_table:"main"."t"}. */
    public record Change(String type, String value)
    {
        /** The value as an id, for entries whose value is one. */
        public OptionalLong id()
        {
            try {
                return OptionalLong.of(Long.parseLong(value.strip()));
            }
            catch (NumberFormatException e) {
                return OptionalLong.empty();
            }
        }

        /** Whether this entry records a flush of {@code tableId}'s inlined data (either spelling DuckLake uses). */
        public boolean flushesInlinedDataOf(long tableId)
        {
            String kind = type.toLowerCase(java.util.Locale.ROOT);
            return (kind.equals("inline_flush") || kind.equals("flushed_inlined")) && id().equals(OptionalLong.of(tableId));
        }

        /** Whether this entry changes a schema object (create, drop or alter), which makes a commit not data-only. */
        public boolean changesStructure()
        {
            return type.startsWith("created_") || type.startsWith("dropped_") || type.startsWith("altered_");
        }
    }

    private SnapshotChanges() {}

    public static List<Change> parse(String changesMade)
    {
        List<Change> changes = new ArrayList<>();
        if (changesMade == null || changesMade.isEmpty()) {
            return changes;
        }
        int start = 0;
        boolean quoted = false;
        for (int i = 0; i <= changesMade.length(); i++) {
            if (i == changesMade.length() || (changesMade.charAt(i) == ',' && !quoted)) {
                addEntry(changes, changesMade.substring(start, i));
                start = i + 1;
            }
            else if (changesMade.charAt(i) == '"') {
                quoted = !quoted;
            }
        }
        return changes;
    }

    private static void addEntry(List<Change> changes, String entry)
    {
        int colon = entry.indexOf(':');
        if (colon < 0) {
            changes.add(new Change(entry.strip().toLowerCase(Locale.ROOT), ""));
            return;
        }
        changes.add(new Change(entry.substring(0, colon).strip().toLowerCase(Locale.ROOT), entry.substring(colon + 1)));
    }
}
