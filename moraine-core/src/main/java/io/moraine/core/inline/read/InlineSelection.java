package io.moraine.core.inline.read;

import io.moraine.core.row.VersionVisibility;

import java.util.OptionalLong;

/** Which inlined row versions a scan returns, decided per version from its begin and end snapshots. */
public sealed interface InlineSelection
{
    boolean selects(long beginSnapshot, OptionalLong endSnapshot);

    /** Whether a chunk inserted at {@code beginSnapshot} can hold a selected version (lets a scan skip whole chunks). */
    boolean mayHoldSelected(long beginSnapshot);

    /** Whether deletion events are needed to decide (not for insertion windows). */
    default boolean needsEnds()
    {
        return true;
    }

    /** Visible at S ({@link VersionVisibility}): a scan of the table at snapshot S. */
    record AtSnapshot(long snapshotId)
            implements InlineSelection
    {
        @Override
        public boolean selects(long begin, OptionalLong end)
        {
            return VersionVisibility.visibleAt(begin, end, snapshotId);
        }

        @Override
        public boolean mayHoldSelected(long begin)
        {
            return begin <= snapshotId;
        }
    }

    /** Inserted in {@code [from, to]} (the change feed's insertions; no end filter). */
    record InsertedBetween(long from, long to)
            implements InlineSelection
    {
        @Override
        public boolean selects(long begin, OptionalLong end)
        {
            return from <= begin && begin <= to;
        }

        @Override
        public boolean mayHoldSelected(long begin)
        {
            return from <= begin && begin <= to;
        }

        @Override
        public boolean needsEnds()
        {
            return false;
        }
    }

    /** Deleted in {@code [from, to]} (the change feed's deletions). */
    record DeletedBetween(long from, long to)
            implements InlineSelection
    {
        @Override
        public boolean selects(long begin, OptionalLong end)
        {
            return end.isPresent() && from <= end.getAsLong() && end.getAsLong() <= to;
        }

        @Override
        public boolean mayHoldSelected(long begin)
        {
            return begin <= to;
        }
    }

    /** Every version that began at or before S, live or ended: what a flush at S writes out. */
    record ForFlush(long snapshotId)
            implements InlineSelection
    {
        @Override
        public boolean selects(long begin, OptionalLong end)
        {
            return begin <= snapshotId;
        }

        @Override
        public boolean mayHoldSelected(long begin)
        {
            return begin <= snapshotId;
        }
    }
}
