package io.moraine.duckdb.ext;

import java.util.concurrent.atomic.AtomicLong;

/** How many commits in this process failed as a conflict (each one a DuckLake retry): what the commit-policy figures count. */
final class CommitConflicts
{
    private static final AtomicLong COUNT = new AtomicLong();

    private CommitConflicts() {}

    static void counted()
    {
        COUNT.incrementAndGet();
    }

    static long count()
    {
        return COUNT.get();
    }
}
