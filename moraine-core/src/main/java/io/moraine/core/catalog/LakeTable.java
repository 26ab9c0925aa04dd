package io.moraine.core.catalog;

import io.moraine.core.row.Row;

import java.util.Optional;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * A table of the lake at a snapshot ({@code ducklake_table}) with the schema it is in: its catalog id (the id scans,
 * statistics and change feeds take), uuid, name, and its path (relative to its schema's when {@code pathIsRelative}).
 * Its columns, partition and sort specs and tags are in its {@link TableDefinition} ({@link CatalogModel#definition}).
 */
public record LakeTable(long id, UUID uuid, LakeSchema schema, String name, Optional<String> path, boolean pathIsRelative)
{
    public LakeTable
    {
        requireNonNull(schema, "schema is null");
        requireNonNull(name, "name is null");
        requireNonNull(path, "path is null");
    }

    static LakeTable of(Row row, LakeSchema schema)
    {
        return new LakeTable(row.getLong("table_id"), (UUID) row.get("table_uuid"), schema, row.getString("table_name"),
                Optional.ofNullable(row.getString("path")), Boolean.TRUE.equals(row.get("path_is_relative")));
    }

    /** {@code schema.table}, as messages name it. */
    public String qualifiedName()
    {
        return schema.name() + "." + name;
    }

    /** Where the table's relative file paths resolve under {@code dataPath}: its schema's path, then its own (reference §4.2). */
    public String resolvedPath(String dataPath)
    {
        return CatalogPaths.resolve(schema.resolvedPath(dataPath), path.orElse(null), pathIsRelative);
    }
}
