package io.moraine.core.catalog;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.row.ColumnNode;
import io.moraine.core.row.Row;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
import java.util.stream.Collectors;

/**
 * A partition spec as a writer applies it (reference §2.15): the keys of one {@code partition_id} in key order, each
 * turning a row's column value into the text DuckLake stores in {@code ducklake_file_partition_value}, and the hive
 * directory {@code key=value/...} DuckLake writes the file under.
 */
public record PartitionSpec(long partitionId, List<Key> keys)
{
    /** Written for a NULL key value in hive paths, as DuckDB's hive partitioning reads it back. */
    public static final String HIVE_NULL = "__HIVE_DEFAULT_PARTITION__";

    /** One key: the column it reads, its transform, and its unique hive key name. */
    public record Key(int index, long columnId, String columnType, PartitionTransform transform, String hiveName)
    {
        /** The stored text of the transformed value, or null for a NULL key. */
        public String valueText(Object columnValue)
        {
            Object transformed = transform.apply(columnValue, columnType);
            try {
                return io.moraine.core.types.DuckLakeValues.text(transformed);
            }
            catch (io.moraine.core.error.InvalidArgumentException e) {
                throw new io.moraine.core.error.UnsupportedFeatureException("partition key column " + columnId + " of type " + columnType + " has values ("
                        + transformed.getClass().getSimpleName() + ") with no known DuckDB text form in moraine. Flush this table with DuckDB: "
                        + "CALL ducklake_flush_inlined_data(...)", e);
            }
        }
    }

    /**
     * The spec from its {@code ducklake_partition_column} rows and the table's columns at the schema version written;
     * empty keys mean unpartitioned.
     */
    public static PartitionSpec of(long partitionId, List<Row> partitionColumns, List<ColumnNode> columns)
    {
        Map<Long, ColumnNode> byId = columns.stream().collect(Collectors.toMap(ColumnNode::columnId, column -> column));
        List<Row> ordered = new ArrayList<>(partitionColumns);
        ordered.sort((a, b) -> Long.compare(a.getLong("partition_key_index"), b.getLong("partition_key_index")));
        Set<String> used = new HashSet<>();
        List<Key> keys = new ArrayList<>();
        for (Row row : ordered) {
            ColumnNode column = byId.get(row.getLong("column_id"));
            if (column == null) {
                throw new CorruptionException("partition spec " + partitionId + " keys column " + row.getLong("column_id")
                        + ", which is not a top-level column of the table's schema");
            }
            PartitionTransform transform = PartitionTransform.parse(row.getString("transform"));
            String name = uniqueName(transform.keyPrefix(column.name()), column.name(), used);
            used.add(name.toLowerCase(Locale.ROOT));
            keys.add(new Key(row.getLong("partition_key_index").intValue(), column.columnId(), column.type(), transform, name));
        }
        return new PartitionSpec(partitionId, List.copyOf(keys));
    }

    /** The key texts of one row, given its column values by column id. */
    public List<String> valueTexts(LongFunction<Object> columnValue)
    {
        List<String> texts = new ArrayList<>(keys.size());
        for (Key key : keys) {
            texts.add(key.valueText(columnValue.apply(key.columnId())));
        }
        return texts;
    }

    /** {@code key=value/} per key, names and values URL-escaped as DuckDB's hive writer does; NULL as {@link #HIVE_NULL}. */
    public String hiveDirectory(List<String> valueTexts)
    {
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            String value = valueTexts.get(i);
            path.append(escape(keys.get(i).hiveName())).append('=').append(escape(value == null ? HIVE_NULL : value)).append('/');
        }
        return path.toString();
    }

    /** A second key with the same name is {@code <prefix>_<column>}, then {@code <prefix>_<column>_2}, ... (case-insensitive). */
    private static String uniqueName(String prefix, String columnName, Set<String> used)
    {
        if (!used.contains(prefix.toLowerCase(Locale.ROOT))) {
            return prefix;
        }
        String base = prefix + "_" + columnName;
        String candidate = base;
        int counter = 2;
        while (used.contains(candidate.toLowerCase(Locale.ROOT))) {
            candidate = base + "_" + counter++;
        }
        return candidate;
    }

    /** Percent-encodes every UTF-8 byte except RFC 3986's unreserved characters, with upper-case hex. */
    static String escape(String text)
    {
        StringBuilder escaped = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~') {
                escaped.append(c);
            }
            else {
                escaped.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xff));
            }
        }
        return escaped.toString();
    }
}
