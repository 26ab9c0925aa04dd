package io.moraine.core.write;

import io.moraine.core.catalog.PartitionTransform;

import static java.util.Objects.requireNonNull;

/** One key of a partition spec to set: a top-level column and its transform ({@code identity}, {@code year}, ..., {@code bucket(N)}). */
public record PartitionField(String column, PartitionTransform transform)
{
    public PartitionField
    {
        requireNonNull(column, "column is null");
        requireNonNull(transform, "transform is null");
    }

    public static PartitionField identity(String column)
    {
        return new PartitionField(column, PartitionTransform.parse("identity"));
    }

    public static PartitionField of(String column, String transform)
    {
        return new PartitionField(column, PartitionTransform.parse(transform));
    }
}
