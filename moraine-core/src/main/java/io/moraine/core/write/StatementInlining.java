package io.moraine.core.write;

/**
 * DuckLake's rule for where a statement's small new rows go when an engine's writers (Trino's page sinks, Spark's
 * tasks) each held theirs back for inlining: DuckDB inlines per statement, so the held rows are inlined only when the
 * whole statement's rows fit the table's {@code data_inlining_row_limit} ({@link WriteTransaction#inliningRowLimit});
 * otherwise the engine writes them to a data file too. One rule for every engine's commit.
 */
public final class StatementInlining
{
    private StatementInlining() {}

    /**
     * Whether the new rows writers held are inlined ({@link WriteTransaction#insertInlined}): some were held, and they
     * fit the limit together with the statement's rows already in data files.
     */
    public static boolean inlinesNewRows(long heldRows, long rowsInFiles, long inliningRowLimit)
    {
        return heldRows > 0 && heldRows + rowsInFiles <= inliningRowLimit;
    }

    /**
     * Whether the new versions of updated rows writers held are inlined keeping their row ids
     * ({@link WriteTransaction#insertInlinedKeepingRowIds}): some were held and they fit the limit; else they go to a
     * data file with the {@code _ducklake_internal_row_id} column.
     */
    public static boolean inlinesUpdatedRows(long heldRows, long inliningRowLimit)
    {
        return heldRows > 0 && heldRows <= inliningRowLimit;
    }
}
