package io.moraine.core.write;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** A table to create: where, its columns, its partition spec and sort order (empty for none), and its comment. */
public record NewTable(String schema, String name, List<ColumnDefinition> columns, List<PartitionField> partitioning, List<SortField> sortOrder,
        Optional<String> comment)
{
    public NewTable
    {
        requireNonNull(schema, "schema is null");
        requireNonNull(name, "name is null");
        columns = List.copyOf(columns);
        partitioning = List.copyOf(partitioning);
        sortOrder = List.copyOf(sortOrder);
        requireNonNull(comment, "comment is null");
    }

    public static NewTable of(String schema, String name, List<ColumnDefinition> columns)
    {
        return new NewTable(schema, name, columns, List.of(), List.of(), Optional.empty());
    }

    public NewTable partitionedBy(List<PartitionField> keys)
    {
        return new NewTable(schema, name, columns, keys, sortOrder, comment);
    }

    public NewTable sortedBy(List<SortField> keys)
    {
        return new NewTable(schema, name, columns, partitioning, keys, comment);
    }

    public NewTable withComment(String text)
    {
        return new NewTable(schema, name, columns, partitioning, sortOrder, Optional.ofNullable(text));
    }
}
