package io.moraine.testing;

/** A column of a table at a snapshot, with its type as DuckDB names it (e.g. {@code STRUCT(city VARCHAR, zip INTEGER)}). */
public record LakeColumn(String name, String duckdbType)
{
    public String sqlName()
    {
        return LakeTable.quote(name);
    }
}
