package io.moraine.core.row;

import static java.util.Objects.requireNonNull;

/** One column of a {@code ducklake_*} table, as DuckLake's bootstrap DDL declares it. */
public record Column(String name, ColumnType type)
{
    public Column
    {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }
}
