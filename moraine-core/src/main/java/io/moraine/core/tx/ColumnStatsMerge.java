package io.moraine.core.tx;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.RowValueCodec;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Re-derives a rebased commit's {@code ducklake_table_column_stats} update on the head's row, as DuckDB merges
 * column statistics: a three-way merge per column (a value only one side changed from the read row takes that side's),
 * and where both changed, {@code contains_null} / {@code contains_nan} are OR-ed and min / max are the typed minimum
 * of the mins and maximum of the maxes. What it cannot merge (no read image, a stat text that does not parse, a
 * type moraine does not order, extra_stats both sides changed) is refused, so the commit fails as a conflict.
 */
final class ColumnStatsMerge
{
    /** The update re-derived on the head's row, or why it cannot be. */
    record Merged(StagedOperation update, String refusal) {}

    private ColumnStatsMerge() {}

    static Merged onto(KeyValueReader reader, StagedOperation.Update update)
    {
        Long tableId = (Long) update.key().get(0);
        Long columnId = (Long) update.key().get(1);
        String subject = "table " + tableId + " column " + columnId + "'s ducklake_table_column_stats";
        if (update.readImage().isEmpty()) {
            return refused("its update of " + subject + " has no read image");
        }
        Row read = update.readImage().get();
        Optional<Row> current = DataOnlyRebase.currentRow(reader, TableKind.TABLE_COLUMN_STATS, tableId, columnId);
        if (current.isEmpty()) {
            return refused(subject + " has no row at the head");
        }
        Row head = current.get();
        Row authored = read.with(update.changes());
        Map<String, Object> merged = new HashMap<>();
        for (String column : new String[] {"contains_null", "contains_nan", "min_value", "max_value", "extra_stats"}) {
            Object readValue = read.get(column);
            Object headValue = head.get(column);
            Object authoredValue = authored.get(column);
            Object value;
            if (Objects.equals(authoredValue, readValue) || Objects.equals(authoredValue, headValue)) {
                value = headValue;
            }
            else if (Objects.equals(headValue, readValue)) {
                value = authoredValue;
            }
            else {
                String refusal = null;
                switch (column) {
                    case "contains_null", "contains_nan" -> value = or((Boolean) headValue, (Boolean) authoredValue);
                    case "min_value", "max_value" -> {
                        Optional<Object> extreme = typedExtreme(reader, tableId, columnId, (String) headValue, (String) authoredValue,
                                column.equals("min_value"));
                        value = extreme.orElse(null);
                        if (extreme.isEmpty()) {
                            refusal = subject + " " + column + " changed on both sides ('" + headValue + "' at the head, '" + authoredValue
                                    + "' in this commit) and the two cannot be compared as values of the column's type";
                        }
                    }
                    default -> {
                        value = null;
                        refusal = subject + " extra_stats changed on both sides, and moraine does not merge them";
                    }
                }
                if (refusal != null) {
                    return refused(refusal);
                }
            }
            merged.put(column, value);
        }
        return new Merged(new StagedOperation.Update(TableKind.TABLE_COLUMN_STATS, update.key(), merged, Optional.of(head)), null);
    }

    private static Merged refused(String reason)
    {
        return new Merged(null, reason);
    }

    private static Boolean or(Boolean left, Boolean right)
    {
        if (Boolean.TRUE.equals(left) || Boolean.TRUE.equals(right)) {
            return true;
        }
        return left == null || right == null ? null : false;
    }

    /** The smaller (or larger) of two stat texts compared as values of the column's type, keeping the winner's text. */
    private static Optional<Object> typedExtreme(KeyValueReader reader, long tableId, long columnId, String head, String authored, boolean min)
    {
        if (head == null || authored == null) {
            return Optional.empty();
        }
        Optional<DuckLakeType> type = columnType(reader, tableId, columnId);
        if (type.isEmpty()) {
            return Optional.empty();
        }
        Optional<Object> headValue = DuckLakeValues.parseStat(type.get(), head);
        Optional<Object> authoredValue = DuckLakeValues.parseStat(type.get(), authored);
        if (headValue.isEmpty() || authoredValue.isEmpty()) {
            return Optional.empty();
        }
        int order = DuckLakeValues.compare(authoredValue.get(), headValue.get());
        return Optional.of(min == order < 0 ? authored : head);
    }

    /** The type of the column's live version at the head (a rebased commit alters no column, and none altered since). */
    private static Optional<DuckLakeType> columnType(KeyValueReader reader, long tableId, long columnId)
    {
        byte[] prefix = RowKeys.prefix(Subspace.CURRENT, TableKind.COLUMN, tableId, columnId);
        KeyValueCursor cursor = reader.scan(prefix, KeyWriter.prefixEnd(prefix), 16);
        try {
            while (cursor.hasNext()) {
                KeyValue entry = cursor.next();
                Row column = RowValueCodec.decode(TableKind.COLUMN, entry.key(), entry.value());
                if (column.get("end_snapshot") == null) {
                    try {
                        return Optional.of(DuckLakeType.parseScalar(column.getString("column_name"), column.getString("column_type")));
                    }
                    catch (RuntimeException e) {
                        return Optional.empty();
                    }
                }
            }
            return Optional.empty();
        }
        finally {
            cursor.close();
        }
    }
}
