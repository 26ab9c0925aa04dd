package io.moraine.core.scan;

/**
 * Which row ids a data file holds, for files whose ids the catalog cannot prove to be {@code row_id_start + position}
 * (flush outputs, update rewrites, compactions that kept ids). Planning asks it about a bounded {@code $row_id} domain
 * and drops the files it rules out. The core ships only {@link #unknown()}; the {@code sidecars} module answers from
 * published row summaries (RFC 0023).
 */
public interface RowIdMembership
{
    /** Whether {@code file} may hold a row id {@code rowIds} accepts; {@code true} whenever that is not known. */
    boolean mayHold(DataFileTask file, ColumnDomain rowIds);

    /** Keeps every file: what planning does without row summaries. */
    static RowIdMembership unknown()
    {
        return (file, rowIds) -> true;
    }
}
