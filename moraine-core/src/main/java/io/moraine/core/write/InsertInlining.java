package io.moraine.core.write;

import java.io.Serializable;

/**
 * DuckLake's per-statement choice for an insert's rows: a statement of at most the table's resolved
 * {@code data_inlining_row_limit} rows goes into the catalog as inlined rows ({@link WriteTransaction#insertInlined}),
 * a larger one to Parquet files. An engine runs a statement in tasks that do not see each other's rows, so the choice is
 * made in two steps: each task holds its rows ({@link #newTask}) while it has no more than the limit, and at commit the
 * held rows are inlined only if the statement's total, held rows and rows tasks already wrote to files, fits
 * ({@link #inlines}); else the engine writes them to a file. Serializable: it travels from the planner to the tasks.
 *
 * @param rowLimit the table's resolved {@code data_inlining_row_limit}; 0 (or less) inlines nothing
 */
public record InsertInlining(long rowLimit)
        implements Serializable
{
    /** Every row to files: inlining off, or rows the engine cannot put into an inlined batch. */
    public static final InsertInlining OFF = new InsertInlining(0);

    /** The inlining limit an insert into {@code schema.table} in {@code transaction} falls under. */
    public static InsertInlining of(WriteTransaction transaction, String schema, String table)
    {
        return new InsertInlining(transaction.inliningRowLimit(schema, table));
    }

    /** A task's holder of its rows; {@code T} is the engine's unit of rows (a page, a row). */
    public <T> HeldRows<T> newTask()
    {
        return new HeldRows<>(rowLimit);
    }

    /**
     * Whether the statement's held rows go into the catalog: there are some, and with the rows its tasks wrote to files
     * they are no more than the limit. When false and {@code heldRows > 0}, the engine writes the held rows to a file.
     */
    public boolean inlines(long heldRows, long fileRows)
    {
        return heldRows > 0 && heldRows + fileRows <= rowLimit;
    }
}
