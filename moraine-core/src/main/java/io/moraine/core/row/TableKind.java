package io.moraine.core.row;

import io.moraine.core.error.InvalidArgumentException;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import static io.moraine.core.row.ColumnType.BIGINT;
import static io.moraine.core.row.ColumnType.BOOLEAN;
import static io.moraine.core.row.ColumnType.TIMESTAMPTZ;
import static io.moraine.core.row.ColumnType.UUID;
import static io.moraine.core.row.ColumnType.VARCHAR;

/**
 * The 28 {@code ducklake_*} tables of DuckLake format 1.0, with their columns in DDL order, how DuckLake mutates
 * them, and the columns moraine keys their rows by (see docs/format.md). The {@link #tag()} byte names the table in
 * store keys and never changes.
 */
public enum TableKind
{
    METADATA(1, Lifecycle.UPDATED_IN_PLACE, null, List.of("key", "scope", "scope_id"),
            col("key", VARCHAR),
            col("value", VARCHAR),
            col("scope", VARCHAR),
            col("scope_id", BIGINT)),
    SNAPSHOT(2, Lifecycle.INSERT_ONLY, "snapshot_id", List.of("snapshot_id"),
            col("snapshot_id", BIGINT),
            col("snapshot_time", TIMESTAMPTZ),
            col("schema_version", BIGINT),
            col("next_catalog_id", BIGINT),
            col("next_file_id", BIGINT)),
    SNAPSHOT_CHANGES(3, Lifecycle.INSERT_ONLY, "snapshot_id", List.of("snapshot_id"),
            col("snapshot_id", BIGINT),
            col("changes_made", VARCHAR),
            col("author", VARCHAR),
            col("commit_message", VARCHAR),
            col("commit_extra_info", VARCHAR)),
    SCHEMA(4, Lifecycle.VERSIONED, "schema_id", List.of("schema_id"),
            col("schema_id", BIGINT),
            col("schema_uuid", UUID),
            col("begin_snapshot", BIGINT),
            col("end_snapshot", BIGINT),
            col("schema_name", VARCHAR),
            col("path", VARCHAR),
            col("path_is_relative", BOOLEAN)),
    TABLE(5, Lifecycle.VERSIONED, null, List.of("table_id", "begin_snapshot"),
            col("table_id", BIGINT),
            col("table_uuid", UUID),
            col("begin_snapshot", BIGINT),
            col("end_snapshot", BIGINT),
            col("schema_id", BIGINT),
            col("table_name", VARCHAR),
            col("path", VARCHAR),
            col("path_is_relative", BOOLEAN)),
    VIEW(6, Lifecycle.VERSIONED, null, List.of("view_id", "begin_snapshot"),
            col("view_id", BIGINT),
            col("view_uuid", UUID),
            col("begin_snapshot", BIGINT),
            col("end_snapshot", BIGINT),
            col("schema_id", BIGINT),
            col("view_name", VARCHAR),
            col("dialect", VARCHAR),
            col("sql", VARCHAR),
            col("column_aliases", VARCHAR)),
    TAG(7, Lifecycle.VERSIONED, null, List.of("object_id", "key", "begin_snapshot"),
            col("object_id", BIGINT),
            col("begin_snapshot", BIGINT),
            col("end_snapshot", BIGINT),
            col("key", VARCHAR),
            col("value", VARCHAR)),
    COLUMN_TAG(8, Lifecycle.VERSIONED, null, List.of("table_id", "column_id", "key", "begin_snapshot"),
            col("table_id", BIGINT),
            col("column_id", BIGINT),
            col("begin_snapshot", BIGINT),
            col("end_snapshot", BIGINT),
            col("key", VARCHAR),
            col("value", VARCHAR)),
    DATA_FILE(9, Lifecycle.VERSIONED, "data_file_id", List.of("table_id", "data_file_id"),
            col("data_file_id", BIGINT),
            col("table_id", BIGINT),
            col("begin_snapshot", BIGINT),
            col("end_snapshot", BIGINT),
            col("file_order", BIGINT),
            col("path", VARCHAR),
            col("path_is_relative", BOOLEAN),
            col("file_format", VARCHAR),
            col("record_count", BIGINT),
            col("file_size_bytes", BIGINT),
            col("footer_size", BIGINT),
            col("row_id_start", BIGINT),
            col("partition_id", BIGINT),
            col("encryption_key", VARCHAR),
            col("mapping_id", BIGINT),
            col("partial_max", BIGINT)),
    FILE_COLUMN_STATS(10, Lifecycle.INSERT_ONLY, null, List.of("table_id", "data_file_id", "column_id"),
            col("data_file_id", BIGINT),
            col("table_id", BIGINT),
            col("column_id", BIGINT),
            col("column_size_bytes", BIGINT),
            col("value_count", BIGINT),
            col("null_count", BIGINT),
            col("min_value", VARCHAR),
            col("max_value", VARCHAR),
            col("contains_nan", BOOLEAN),
            col("extra_stats", VARCHAR)),
    FILE_VARIANT_STATS(11, Lifecycle.INSERT_ONLY, null, List.of("table_id", "data_file_id", "column_id", "variant_path"),
            col("data_file_id", BIGINT),
            col("table_id", BIGINT),
            col("column_id", BIGINT),
            col("variant_path", VARCHAR),
            col("shredded_type", VARCHAR),
            col("column_size_bytes", BIGINT),
            col("value_count", BIGINT),
            col("null_count", BIGINT),
            col("min_value", VARCHAR),
            col("max_value", VARCHAR),
            col("contains_nan", BOOLEAN),
            col("extra_stats", VARCHAR)),
    DELETE_FILE(12, Lifecycle.VERSIONED, "delete_file_id", List.of("table_id", "delete_file_id"),
            col("delete_file_id", BIGINT),
            col("table_id", BIGINT),
            col("begin_snapshot", BIGINT),
            col("end_snapshot", BIGINT),
            col("data_file_id", BIGINT),
            col("path", VARCHAR),
            col("path_is_relative", BOOLEAN),
            col("format", VARCHAR),
            col("delete_count", BIGINT),
            col("file_size_bytes", BIGINT),
            col("footer_size", BIGINT),
            col("encryption_key", VARCHAR),
            col("partial_max", BIGINT)),
    COLUMN(13, Lifecycle.VERSIONED, null, List.of("table_id", "column_id", "begin_snapshot"),
            col("column_id", BIGINT),
            col("begin_snapshot", BIGINT),
            col("end_snapshot", BIGINT),
            col("table_id", BIGINT),
            col("column_order", BIGINT),
            col("column_name", VARCHAR),
            col("column_type", VARCHAR),
            col("initial_default", VARCHAR),
            col("default_value", VARCHAR),
            col("nulls_allowed", BOOLEAN),
            col("parent_column", BIGINT),
            col("default_value_type", VARCHAR),
            col("default_value_dialect", VARCHAR)),
    TABLE_STATS(14, Lifecycle.UPDATED_IN_PLACE, null, List.of("table_id"),
            col("table_id", BIGINT),
            col("record_count", BIGINT),
            col("next_row_id", BIGINT),
            col("file_size_bytes", BIGINT)),
    TABLE_COLUMN_STATS(15, Lifecycle.UPDATED_IN_PLACE, null, List.of("table_id", "column_id"),
            col("table_id", BIGINT),
            col("column_id", BIGINT),
            col("contains_null", BOOLEAN),
            col("contains_nan", BOOLEAN),
            col("min_value", VARCHAR),
            col("max_value", VARCHAR),
            col("extra_stats", VARCHAR)),
    PARTITION_INFO(16, Lifecycle.VERSIONED, null, List.of("table_id", "partition_id"),
            col("partition_id", BIGINT),
            col("table_id", BIGINT),
            col("begin_snapshot", BIGINT),
            col("end_snapshot", BIGINT)),
    PARTITION_COLUMN(17, Lifecycle.INSERT_ONLY, null, List.of("table_id", "partition_id", "partition_key_index"),
            col("partition_id", BIGINT),
            col("table_id", BIGINT),
            col("partition_key_index", BIGINT),
            col("column_id", BIGINT),
            col("transform", VARCHAR)),
    FILE_PARTITION_VALUE(18, Lifecycle.INSERT_ONLY, null, List.of("table_id", "data_file_id", "partition_key_index"),
            col("data_file_id", BIGINT),
            col("table_id", BIGINT),
            col("partition_key_index", BIGINT),
            col("partition_value", VARCHAR)),
    FILES_SCHEDULED_FOR_DELETION(19, Lifecycle.INSERT_ONLY, null, List.of("data_file_id", "path"),
            col("data_file_id", BIGINT),
            col("path", VARCHAR),
            col("path_is_relative", BOOLEAN),
            col("schedule_start", TIMESTAMPTZ)),
    INLINED_DATA_TABLES(20, Lifecycle.INSERT_ONLY, null, List.of("table_id", "schema_version"),
            col("table_id", BIGINT),
            col("table_name", VARCHAR),
            col("schema_version", BIGINT)),
    COLUMN_MAPPING(21, Lifecycle.INSERT_ONLY, null, List.of("table_id", "mapping_id"),
            col("mapping_id", BIGINT),
            col("table_id", BIGINT),
            col("type", VARCHAR)),
    NAME_MAPPING(22, Lifecycle.INSERT_ONLY, null, List.of("mapping_id", "column_id"),
            col("mapping_id", BIGINT),
            col("column_id", BIGINT),
            col("source_name", VARCHAR),
            col("target_field_id", BIGINT),
            col("parent_column", BIGINT),
            col("is_partition", BOOLEAN)),
    SCHEMA_VERSIONS(23, Lifecycle.INSERT_ONLY, null, List.of("table_id", "schema_version", "begin_snapshot"),
            col("begin_snapshot", BIGINT),
            col("schema_version", BIGINT),
            col("table_id", BIGINT)),
    MACRO(24, Lifecycle.VERSIONED, null, List.of("schema_id", "macro_id", "begin_snapshot"),
            col("schema_id", BIGINT),
            col("macro_id", BIGINT),
            col("macro_name", VARCHAR),
            col("begin_snapshot", BIGINT),
            col("end_snapshot", BIGINT)),
    MACRO_IMPL(25, Lifecycle.INSERT_ONLY, null, List.of("macro_id", "impl_id"),
            col("macro_id", BIGINT),
            col("impl_id", BIGINT),
            col("dialect", VARCHAR),
            col("sql", VARCHAR),
            col("type", VARCHAR)),
    MACRO_PARAMETERS(26, Lifecycle.INSERT_ONLY, null, List.of("macro_id", "impl_id", "column_id"),
            col("macro_id", BIGINT),
            col("impl_id", BIGINT),
            col("column_id", BIGINT),
            col("parameter_name", VARCHAR),
            col("parameter_type", VARCHAR),
            col("default_value", VARCHAR),
            col("default_value_type", VARCHAR)),
    SORT_INFO(27, Lifecycle.VERSIONED, null, List.of("table_id", "sort_id"),
            col("sort_id", BIGINT),
            col("table_id", BIGINT),
            col("begin_snapshot", BIGINT),
            col("end_snapshot", BIGINT)),
    SORT_EXPRESSION(28, Lifecycle.INSERT_ONLY, null, List.of("table_id", "sort_id", "sort_key_index"),
            col("sort_id", BIGINT),
            col("table_id", BIGINT),
            col("sort_key_index", BIGINT),
            col("expression", VARCHAR),
            col("dialect", VARCHAR),
            col("sort_direction", VARCHAR),
            col("null_order", VARCHAR));

    private static final Map<String, TableKind> BY_TABLE_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(TableKind::tableName, Function.identity()));
    private static final TableKind[] BY_TAG = new TableKind[256];

    static {
        for (TableKind kind : values()) {
            BY_TAG[kind.tag] = kind;
        }
    }

    private final byte tag;
    private final Lifecycle lifecycle;
    private final String primaryKey;
    private final List<Column> columns;
    private final int[] keyColumnIndexes;
    private final Map<String, Integer> indexByName;

    TableKind(int tag, Lifecycle lifecycle, String primaryKey, List<String> keyColumns, Column... columns)
    {
        this.tag = (byte) tag;
        this.lifecycle = lifecycle;
        this.primaryKey = primaryKey;
        this.columns = List.of(columns);
        this.indexByName = java.util.stream.IntStream.range(0, columns.length).boxed()
                .collect(Collectors.toUnmodifiableMap(i -> columns[i].name(), i -> i));
        this.keyColumnIndexes = keyColumns.stream().mapToInt(indexByName::get).toArray();
    }

    private static Column col(String name, ColumnType type)
    {
        return new Column(name, type);
    }

    /** The SQL name, {@code ducklake_<kind>}. */
    public String tableName()
    {
        return "ducklake_" + name().toLowerCase(Locale.ROOT);
    }

    public byte tag()
    {
        return tag;
    }

    public Lifecycle lifecycle()
    {
        return lifecycle;
    }

    public boolean isVersioned()
    {
        return lifecycle == Lifecycle.VERSIONED;
    }

    /** The declared primary key column, for the five tables DuckLake declares one on. */
    public Optional<String> primaryKey()
    {
        return Optional.ofNullable(primaryKey);
    }

    public List<Column> columns()
    {
        return columns;
    }

    /** Positions in {@link #columns()} of the columns that identify a row in the store, in key order. */
    public int[] keyColumnIndexes()
    {
        return keyColumnIndexes.clone();
    }

    /**
     * Whether the kind may hold several rows with the same key cells. Only ducklake_file_partition_value: DuckLake
     * declares no key on it and 1.5.5's {@code ducklake_add_data_files} writes every partition value of a file whose
     * table has several partition keys on one column (year(dt), month(dt), day(dt)) under the key index of the last
     * of them, so a DuckDB-file catalog holds rows that agree on (data_file_id, partition_key_index). A second such row
     * is stored under its key cells and a duplicate number ({@link Row#duplicate()}; docs/format.md).
     */
    public boolean allowsDuplicateKeys()
    {
        return this == FILE_PARTITION_VALUE;
    }

    public int columnIndex(String columnName)
    {
        Integer index = indexByName.get(columnName);
        if (index == null) {
            throw new InvalidArgumentException(tableName() + " has no column '" + columnName + "'; its columns are "
                    + columns.stream().map(Column::name).toList());
        }
        return index;
    }

    public boolean hasColumn(String columnName)
    {
        return indexByName.containsKey(columnName);
    }

    /** Looks a kind up by SQL table name ({@code ducklake_data_file}), refusing unknown names with the list of known ones. */
    public static TableKind fromTableName(String tableName)
    {
        TableKind kind = tableName == null ? null : BY_TABLE_NAME.get(tableName.toLowerCase(Locale.ROOT));
        if (kind == null) {
            throw new InvalidArgumentException("unknown catalog table '" + tableName + "'; DuckLake 1.0 has these: "
                    + Arrays.stream(values()).map(TableKind::tableName).sorted().toList());
        }
        return kind;
    }

    /** The kind whose {@link #tag()} is {@code tag}, or empty for a byte no kind uses. */
    public static Optional<TableKind> fromTag(byte tag)
    {
        return Optional.ofNullable(BY_TAG[tag & 0xFF]);
    }
}
