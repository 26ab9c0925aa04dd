package io.moraine.core.row;

/** How DuckLake mutates the rows of a catalog table (reference §1.3), which decides how moraine stores them. */
public enum Lifecycle
{
    /**
     * Rows carry {@code begin_snapshot}/{@code end_snapshot}. A row whose {@code end_snapshot} is NULL is current; the
     * update that sets it moves the row to history. Expiry and compaction may also delete rows physically.
     */
    VERSIONED,
    /** Rows are inserted and later deleted physically, never updated (snapshots, child rows of a parent). */
    INSERT_ONLY,
    /** One row per key, updated in place (table stats, metadata options). */
    UPDATED_IN_PLACE
}
