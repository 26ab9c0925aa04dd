package io.moraine.core.changes;

/** The two sides of a change feed: rows inserted in the range, and rows deleted in it. */
public enum ChangeKind
{
    INSERTION,
    DELETION
}
