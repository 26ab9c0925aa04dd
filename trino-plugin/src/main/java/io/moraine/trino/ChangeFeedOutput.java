package io.moraine.trino;

/** The three change-feed table functions, named as DuckLake names its own ({@code ducklake_table_changes} and so on), with their columns. */
public enum ChangeFeedOutput
{
    /** Every change, with {@code change_type}: deletions and insertions of one snapshot and row id pair into updates. */
    CHANGES("table_changes"),
    /** The rows inserted in the range. */
    INSERTIONS("table_insertions"),
    /** The rows deleted in the range, with their values before the delete. */
    DELETIONS("table_deletions");

    private final String functionName;

    ChangeFeedOutput(String functionName)
    {
        this.functionName = functionName;
    }

    public String functionName()
    {
        return functionName;
    }
}
