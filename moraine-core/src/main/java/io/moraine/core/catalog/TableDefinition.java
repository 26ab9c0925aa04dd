package io.moraine.core.catalog;

import io.moraine.core.types.TableSchema;

import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Everything a table is at a snapshot besides its data: the table, its columns (nested ones in their parents' types),
 * its partition spec and sort spec when it has them, and its tags ({@code COMMENT ON TABLE} is the tag {@code comment}).
 */
public record TableDefinition(LakeTable table, TableSchema columns, Optional<PartitionSpec> partitionSpec, Optional<SortSpec> sortSpec,
        Map<String, String> tags)
{
    public TableDefinition
    {
        requireNonNull(table, "table is null");
        requireNonNull(columns, "columns is null");
        requireNonNull(partitionSpec, "partitionSpec is null");
        requireNonNull(sortSpec, "sortSpec is null");
        tags = Map.copyOf(tags);
    }

    /** The table's comment ({@code COMMENT ON TABLE}), if it has one. */
    public Optional<String> comment()
    {
        return Optional.ofNullable(tags.get("comment"));
    }
}
