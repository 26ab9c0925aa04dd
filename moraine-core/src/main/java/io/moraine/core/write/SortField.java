package io.moraine.core.write;

import static java.util.Objects.requireNonNull;

/** One key of a sort order to set: an expression (a column name) in the given dialect, its direction and where NULLs go. */
public record SortField(String expression, String dialect, boolean descending, boolean nullsFirst)
{
    public SortField
    {
        requireNonNull(expression, "expression is null");
        requireNonNull(dialect, "dialect is null");
    }

    /** Ascending, NULLs last, as DuckDB's default ORDER BY. */
    public static SortField ascending(String column)
    {
        return new SortField(column, "duckdb", false, false);
    }
}
