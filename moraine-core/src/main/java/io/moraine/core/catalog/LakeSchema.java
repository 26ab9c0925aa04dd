package io.moraine.core.catalog;

import io.moraine.core.row.Row;

import java.util.Optional;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * A schema of the lake at a snapshot ({@code ducklake_schema}): its catalog id, uuid, name, and its path (relative to
 * the data path when {@code pathIsRelative}; empty: the data path itself).
 */
public record LakeSchema(long id, UUID uuid, String name, Optional<String> path, boolean pathIsRelative)
{
    public LakeSchema
    {
        requireNonNull(name, "name is null");
        requireNonNull(path, "path is null");
    }

    static LakeSchema of(Row row)
    {
        return new LakeSchema(row.getLong("schema_id"), (UUID) row.get("schema_uuid"), row.getString("schema_name"),
                Optional.ofNullable(row.getString("path")), Boolean.TRUE.equals(row.get("path_is_relative")));
    }

    /** Where the schema's relative table paths resolve under {@code dataPath} (reference §4.2). */
    public String resolvedPath(String dataPath)
    {
        return CatalogPaths.resolve(dataPath, path.orElse(null), pathIsRelative);
    }
}
