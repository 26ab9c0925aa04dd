package io.moraine.core.catalog;

import io.moraine.core.row.Row;

import java.util.Optional;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * A view of the lake at a snapshot ({@code ducklake_view}): its catalog id, uuid, schema, name, the SQL that defines it
 * in its dialect (DuckLake writes {@code duckdb}), and its column aliases as DuckLake stores them, if any.
 */
public record LakeView(long id, UUID uuid, LakeSchema schema, String name, String dialect, String sql, Optional<String> columnAliases)
{
    public LakeView
    {
        requireNonNull(schema, "schema is null");
        requireNonNull(name, "name is null");
        requireNonNull(dialect, "dialect is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(columnAliases, "columnAliases is null");
    }

    static LakeView of(Row row, LakeSchema schema)
    {
        return new LakeView(row.getLong("view_id"), (UUID) row.get("view_uuid"), schema, row.getString("view_name"), row.getString("dialect"),
                row.getString("sql"), Optional.ofNullable(row.getString("column_aliases")).filter(aliases -> !aliases.isEmpty()));
    }
}
