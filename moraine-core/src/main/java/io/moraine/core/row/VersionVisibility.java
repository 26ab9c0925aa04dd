package io.moraine.core.row;

import java.util.OptionalLong;

/**
 * DuckLake's visibility rule for a row version, written once for catalog rows and inlined data: the version is
 * visible at snapshot {@code s} iff {@code begin_snapshot <= s AND (end_snapshot IS NULL OR s < end_snapshot)}.
 */
public final class VersionVisibility
{
    private VersionVisibility() {}

    /** Whether the version that began at {@code beginSnapshot} and ended at {@code endSnapshot} (empty: still live) is visible at {@code snapshotId}. */
    public static boolean visibleAt(long beginSnapshot, OptionalLong endSnapshot, long snapshotId)
    {
        return beginSnapshot <= snapshotId && (endSnapshot.isEmpty() || snapshotId < endSnapshot.getAsLong());
    }

    /** As {@link #visibleAt(long, OptionalLong, long)}, with a NULL {@code endSnapshot} for a version still live. */
    public static boolean visibleAt(long beginSnapshot, Long endSnapshot, long snapshotId)
    {
        return visibleAt(beginSnapshot, endSnapshot == null ? OptionalLong.empty() : OptionalLong.of(endSnapshot), snapshotId);
    }
}
