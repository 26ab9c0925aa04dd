package io.moraine.core.scan;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.catalog.NameMapEntry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The name mappings of a table's data files ({@code ducklake_data_file.mapping_id}), read from
 * {@code ducklake_column_mapping} and {@code ducklake_name_mapping} once per mapping. A mapping with hive-partition
 * entries ({@code is_partition}: DuckLake takes those columns' values from the file's path, not its contents) is
 * refused: moraine's readers take every column from the file.
 */
public final class FileNameMappings
{
    private final CatalogSnapshot snapshot;
    private final long tableId;
    private final Map<Long, NameMapping> loaded = new HashMap<>();

    public FileNameMappings(CatalogSnapshot snapshot, long tableId)
    {
        this.snapshot = snapshot;
        this.tableId = tableId;
    }

    /** The mapping the data file {@code file} (a {@code ducklake_data_file} row) is read through; empty when it has field ids. */
    public Optional<NameMapping> of(Row file)
    {
        Long mappingId = file.getLong("mapping_id");
        if (mappingId == null) {
            return Optional.empty();
        }
        NameMapping mapping = loaded.get(mappingId);
        if (mapping == null) {
            mapping = load(file, mappingId);
            loaded.put(mappingId, mapping);
        }
        return Optional.of(mapping);
    }

    private NameMapping load(Row file, long mappingId)
    {
        String fileName = "data file " + file.getLong("data_file_id") + " (" + file.getString("path") + ") of table " + tableId;
        List<Row> mappings;
        try (RowCursor rows = snapshot.everyVersion(TableKind.COLUMN_MAPPING, tableId, mappingId)) {
            mappings = rows.toList();
        }
        if (mappings.isEmpty()) {
            throw new CorruptionException(fileName + " names mapping " + mappingId + ", which ducklake_column_mapping does not hold for that table");
        }
        String type = mappings.getFirst().getString("type");
        if (!"map_by_name".equals(type)) {
            throw new UnsupportedFeatureException(fileName + " is read through a column mapping of type '" + type
                    + "', and moraine reads only 'map_by_name' mappings; read this table with DuckDB");
        }
        List<Row> columns;
        try (RowCursor rows = snapshot.everyVersion(TableKind.NAME_MAPPING, mappingId)) {
            columns = rows.toList();
        }
        for (Row column : columns) {
            if (Boolean.TRUE.equals(column.get("is_partition"))) {
                throw new UnsupportedFeatureException(fileName + " was added with hive partitioning: DuckLake takes column '"
                        + column.getString("source_name") + "' from the file's path (ducklake_add_data_files with hive_partitioning), and moraine "
                        + "reads every column from the file; read this table with DuckDB, or add files that hold that column");
            }
        }
        return new NameMapping(mappingId, children(columns, null));
    }

    private static List<NameMapEntry> children(List<Row> columns, Long parent)
    {
        List<NameMapEntry> entries = new ArrayList<>();
        for (Row column : columns) {
            if (Objects.equals(column.getLong("parent_column"), parent)) {
                entries.add(new NameMapEntry(column.getString("source_name"), column.getLong("target_field_id"),
                        children(columns, column.getLong("column_id"))));
            }
        }
        return entries;
    }
}
