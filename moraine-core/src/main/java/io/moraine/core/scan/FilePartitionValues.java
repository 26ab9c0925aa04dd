package io.moraine.core.scan;

import io.moraine.core.row.Row;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One data file's partition values, its {@code ducklake_file_partition_value} rows, by partition key index (a NULL
 * value is null). As a rule a key has one row. DuckLake 1.5.5's {@code ducklake_add_data_files} writes the value of
 * every key on one column under the key index of that column's last key, so a file added to a table partitioned by
 * {@code year(dt), month(dt), day(dt)} has its year, month and day all under key 2 and nothing under keys 0 and 1;
 * a DuckDB-file catalog keeps such rows as written, and so does moraine. DuckLake's own reader of these rows, its
 * bucket pruning ({@code data_file_id IN (SELECT data_file_id ... WHERE partition_key_index = k AND partition_value
 * IN (...))}), keeps a file when any row of the key matches, and {@link FilePruning} does the same; a key with several
 * rows has no {@link #single single} value.
 */
public final class FilePartitionValues
{
    private static final FilePartitionValues NONE = new FilePartitionValues(new TreeMap<>());

    private final TreeMap<Integer, List<String>> byKey;

    private FilePartitionValues(TreeMap<Integer, List<String>> byKey)
    {
        this.byKey = byKey;
    }

    /** The values of {@code rows}, one file's {@code ducklake_file_partition_value} rows in the order they are served. */
    public static FilePartitionValues of(Iterable<Row> rows)
    {
        TreeMap<Integer, List<String>> byKey = new TreeMap<>();
        for (Row row : rows) {
            byKey.computeIfAbsent(row.getLong("partition_key_index").intValue(), key -> new ArrayList<>()).add(row.getString("partition_value"));
        }
        return byKey.isEmpty() ? NONE : new FilePartitionValues(byKey);
    }

    /** One value for each key of {@code values} (a NULL value maps to null). */
    public static FilePartitionValues ofSingle(Map<Integer, String> values)
    {
        TreeMap<Integer, List<String>> byKey = new TreeMap<>();
        values.forEach((key, value) -> byKey.put(key, Collections.singletonList(value)));
        return new FilePartitionValues(byKey);
    }

    /** Whether the file has a row for {@code key}; a key without one is not known (and never prunes). */
    public boolean has(int key)
    {
        return byKey.containsKey(key);
    }

    /** The values of {@code key}'s rows, in the order they were written; empty when it has none. */
    public List<String> values(int key)
    {
        return Collections.unmodifiableList(byKey.getOrDefault(key, List.of()));
    }

    /** Whether {@code key} has exactly one row, whose value {@link #single} is. */
    public boolean hasSingle(int key)
    {
        return byKey.containsKey(key) && byKey.get(key).size() == 1;
    }

    /** The value of {@code key}'s one row, or null when it has none or several (or its one value is NULL). */
    public String single(int key)
    {
        return hasSingle(key) ? byKey.get(key).getFirst() : null;
    }

    /** One past the highest key index with a row; 0 when there is none. */
    public int keyCount()
    {
        return byKey.isEmpty() ? 0 : byKey.lastKey() + 1;
    }
}
