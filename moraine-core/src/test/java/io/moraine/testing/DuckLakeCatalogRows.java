package io.moraine.testing;

import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code ducklake_*} rows the core's oracle tests compare between a moraine lake and a DuckDB-file lake written
 * alike: every table of the catalog that a write touches, with what legitimately differs left out (uuids, times, the
 * names, sizes and footers of files each engine's own Parquet writer made). Queries name the metadata catalog
 * {@code lake_meta}; {@link #on} renames it for a connection that attaches both lakes' catalogs under other names.
 */
public final class DuckLakeCatalogRows
{
    /** The catalog rows of unpartitioned tables. */
    public static final List<String> CATALOG = List.of(
            "SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM lake_meta.ducklake_snapshot ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_snapshot_changes ORDER BY ALL",
            "SELECT table_id, begin_snapshot, end_snapshot, schema_id, table_name, path, path_is_relative FROM lake_meta.ducklake_table ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_column ORDER BY ALL",
            "SELECT data_file_id, table_id, begin_snapshot, end_snapshot, file_order, regexp_replace(path, 'ducklake-.*', ''), path_is_relative, "
                    + "file_format, record_count, file_size_bytes, footer_size, row_id_start, partition_id, mapping_id, partial_max FROM lake_meta.ducklake_data_file "
                    + "WHERE path NOT LIKE '%ducklake-%' ORDER BY ALL",
            "SELECT data_file_id, table_id, begin_snapshot, end_snapshot, file_order, regexp_replace(path, 'ducklake-.*', ''), path_is_relative, "
                    + "file_format, record_count, row_id_start, partition_id, mapping_id, partial_max FROM lake_meta.ducklake_data_file ORDER BY ALL",
            "SELECT delete_file_id, table_id, begin_snapshot, end_snapshot, data_file_id, regexp_replace(path, 'ducklake-.*', ''), path_is_relative, "
                    + "format, delete_count, partial_max FROM lake_meta.ducklake_delete_file ORDER BY ALL",
            "SELECT data_file_id, table_id, column_id, value_count, null_count, min_value, max_value, contains_nan FROM lake_meta.ducklake_file_column_stats ORDER BY ALL",
            "SELECT table_id, record_count, next_row_id FROM lake_meta.ducklake_table_stats ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_table_column_stats ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_column_mapping ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_name_mapping ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_inlined_data_tables ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_schema_versions ORDER BY ALL");

    /** {@link #CATALOG} with the partition rows. */
    public static final List<String> PARTITIONED = concat(CATALOG, List.of(
            "SELECT * FROM lake_meta.ducklake_file_partition_value ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_partition_info ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_partition_column ORDER BY ALL"));

    /** The files a compaction or a delete scheduled for deletion (their directory; the names are each writer's). */
    public static final String SCHEDULED_FOR_DELETION =
            "SELECT data_file_id, regexp_replace(path, 'ducklake-.*', ''), path_is_relative FROM lake_meta.ducklake_files_scheduled_for_deletion ORDER BY ALL";

    /** Schemas, sort orders, inlined deletes and tags: the rest of what DDL, sorted tables and deletes write. */
    public static final List<String> MORE = List.of(
            "SELECT schema_id, begin_snapshot, end_snapshot, schema_name, path, path_is_relative FROM lake_meta.ducklake_schema ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_sort_info ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_sort_expression ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_tag ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_column_tag ORDER BY ALL");

    private DuckLakeCatalogRows() {}

    /** {@code sql} reading the metadata catalog attached as {@code metadataCatalog} instead of {@code lake_meta}. */
    public static String on(String metadataCatalog, String sql)
    {
        return sql.replace("lake_meta.", metadataCatalog + ".");
    }

    public static List<String> concat(List<String> first, List<String> second)
    {
        return Stream.concat(first.stream(), second.stream()).toList();
    }
}
