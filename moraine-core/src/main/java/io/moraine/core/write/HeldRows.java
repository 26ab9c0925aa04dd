package io.moraine.core.write;

import java.util.ArrayList;
import java.util.List;

/**
 * One task's rows of an insert, held back for inlining while the task has no more than the inlining limit
 * ({@link InsertInlining#newTask}). The first rows past the limit release every held batch to the engine's data files,
 * and from then on the task writes all its rows to files. {@code T} is the engine's unit of rows (a page, a row); the
 * engine copies what it must before holding it.
 */
public final class HeldRows<T>
{
    private final long limit;
    private final List<T> held = new ArrayList<>();
    private long rowCount;
    private boolean released;

    HeldRows(long limit)
    {
        this.limit = limit;
        this.released = limit <= 0;
    }

    /** Whether the task still holds its rows; once false, every further batch goes straight to a file. */
    public boolean holding()
    {
        return !released;
    }

    /**
     * Holds {@code batch} of {@code rows} rows. Returns what goes to files now: nothing while the task's rows fit the
     * limit; at the first batch past it, every held batch in order, this one last (and {@link #holding} is false after).
     */
    public List<T> hold(T batch, long rows)
    {
        if (released) {
            return List.of(batch);
        }
        held.add(batch);
        rowCount += rows;
        if (rowCount <= limit) {
            return List.of();
        }
        List<T> toFiles = List.copyOf(held);
        discard();
        return toFiles;
    }

    /** The held batches, in the order they came. */
    public List<T> batches()
    {
        return List.copyOf(held);
    }

    /** How many rows are held (0 once released). */
    public long rowCount()
    {
        return rowCount;
    }

    /** Drops the held rows (the task failed, or they were released to files); the task holds nothing more. */
    public void discard()
    {
        held.clear();
        rowCount = 0;
        released = true;
    }
}
