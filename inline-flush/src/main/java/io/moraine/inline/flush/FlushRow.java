package io.moraine.inline.flush;

import org.apache.arrow.vector.FieldVector;

import java.util.List;

/** One inlined row version on its way into a flushed file: its cells in a batch, its row id, and the snapshots that began and (if any) ended it. */
record FlushRow(List<FieldVector> columns, int index, long rowId, long beginSnapshot, Long endSnapshot)
{
    ArrowRowWriteSupport.RowRef ref()
    {
        return new ArrowRowWriteSupport.RowRef(columns, index, rowId, beginSnapshot);
    }
}
