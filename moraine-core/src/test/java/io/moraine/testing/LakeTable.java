package io.moraine.testing;

/** A table of the oracle lake by schema and name, as DuckDB lists it. */
public record LakeTable(String schema, String name)
{
    /** The table under catalog {@code catalog}, quoted so that both DuckDB and Trino read the names as written. */
    public String sqlName(String catalog)
    {
        return catalog + "." + quote(schema) + "." + quote(name);
    }

    public static String quote(String identifier)
    {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    @Override
    public String toString()
    {
        return schema + "." + name;
    }
}
