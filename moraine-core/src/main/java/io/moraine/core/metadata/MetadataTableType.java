package io.moraine.core.metadata;

import io.moraine.core.row.Column;
import io.moraine.core.row.ColumnType;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static io.moraine.core.row.ColumnType.BIGINT;
import static io.moraine.core.row.ColumnType.TIMESTAMPTZ;
import static io.moraine.core.row.ColumnType.VARCHAR;

/**
 * The metadata tables of a lake table, named by a suffix as engines spell them ({@code "orders$files"}), each with its
 * columns; {@link MetadataTables} produces their rows at a snapshot.
 */
public enum MetadataTableType
{
    /** Every retained snapshot of the catalog up to the read snapshot (DuckLake snapshots are catalog-wide). */
    SNAPSHOTS("snapshots", snapshotColumns()),
    /** The read snapshot alone, with the columns of {@link #SNAPSHOTS}. */
    CURRENT_SNAPSHOT("current_snapshot", snapshotColumns()),
    /** One row per {@code changes_made} entry that concerns the table, up to the read snapshot. */
    SNAPSHOT_CHANGES("snapshot_changes", List.of(
            col("snapshot_id", BIGINT),
            col("snapshot_time", TIMESTAMPTZ),
            col("change_type", VARCHAR),
            col("change_value", VARCHAR),
            col("author", VARCHAR),
            col("commit_message", VARCHAR))),
    /** The table's data files visible at the read snapshot, with the delete file that applies to each. */
    FILES("files", List.of(
            col("data_file_id", BIGINT),
            col("path", VARCHAR),
            col("file_format", VARCHAR),
            col("record_count", BIGINT),
            col("file_size_bytes", BIGINT),
            col("footer_size", BIGINT),
            col("row_id_start", BIGINT),
            col("begin_snapshot", BIGINT),
            col("partial_max", BIGINT),
            col("file_order", BIGINT),
            col("partition_id", BIGINT),
            col("partition_values", VARCHAR),
            col("delete_file_id", BIGINT),
            col("delete_file_path", VARCHAR),
            col("delete_file_format", VARCHAR),
            col("delete_count", BIGINT),
            col("delete_file_size_bytes", BIGINT),
            col("delete_file_begin_snapshot", BIGINT),
            col("inlined_delete_count", BIGINT))),
    /** The visible data files aggregated per partition spec and partition values (one row for an unpartitioned table). */
    PARTITIONS("partitions", List.of(
            col("partition_id", BIGINT),
            col("partition_values", VARCHAR),
            col("file_count", BIGINT),
            col("record_count", BIGINT),
            col("total_size_bytes", BIGINT),
            col("delete_file_count", BIGINT),
            col("delete_count", BIGINT)));

    private final String suffix;
    private final List<Column> columns;

    MetadataTableType(String suffix, List<Column> columns)
    {
        this.suffix = suffix;
        this.columns = List.copyOf(columns);
    }

    private static List<Column> snapshotColumns()
    {
        return List.of(
                col("snapshot_id", BIGINT),
                col("snapshot_time", TIMESTAMPTZ),
                col("schema_version", BIGINT),
                col("changes", VARCHAR),
                col("author", VARCHAR),
                col("commit_message", VARCHAR),
                col("commit_extra_info", VARCHAR));
    }

    private static Column col(String name, ColumnType type)
    {
        return new Column(name, type);
    }

    /** The name after {@code $}: {@code files} for {@code "t$files"}. */
    public String suffix()
    {
        return suffix;
    }

    public List<Column> columns()
    {
        return columns;
    }

    public static Optional<MetadataTableType> ofSuffix(String suffix)
    {
        String lower = suffix.toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(type -> type.suffix.equals(lower)).findFirst();
    }

    /** {@code "t$files"} as table {@code t} and type {@link #FILES}; empty for a name without {@code $}. */
    public static Optional<Name> parse(String tableName)
    {
        int dollar = tableName.indexOf('$');
        if (dollar < 0) {
            return Optional.empty();
        }
        return Optional.of(new Name(tableName.substring(0, dollar), ofSuffix(tableName.substring(dollar + 1))));
    }

    /** A metadata table name: the lake table, and the type its suffix names (empty for an unknown suffix). */
    public record Name(String table, Optional<MetadataTableType> type) {}

    /** The suffixes, for an error naming what exists. */
    public static String suffixes()
    {
        return String.join(", ", Arrays.stream(values()).map(type -> "$" + type.suffix).toList());
    }
}
