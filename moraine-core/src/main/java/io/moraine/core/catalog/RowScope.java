package io.moraine.core.catalog;

/** Which rows a raw scan returns. */
public enum RowScope
{
    /** Rows whose end_snapshot is NULL, and every row of unversioned kinds. */
    CURRENT,
    /** Rows of versioned kinds whose end_snapshot is set. */
    HISTORY,
    /** Both: every row the table holds. */
    ALL
}
