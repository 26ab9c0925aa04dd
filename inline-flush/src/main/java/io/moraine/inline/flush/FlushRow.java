package io.moraine.inline.flush;

import io.moraine.core.write.files.DataFileRowWriteSupport;
import org.apache.arrow.vector.FieldVector;

import java.util.List;

/** One inlined row version on its way into a flushed file: its cells in a batch, its row id, and the snapshots that began and (if any) ended it. */
record FlushRow(List<FieldVector> columns, int index, long rowId, long beginSnapshot, Long endSnapshot)
{
    DataFileRowWriteSupport.Row<ArrowRowColumns.Cells> ref()
    {
        return new DataFileRowWriteSupport.Row<>(new ArrowRowColumns.Cells(columns, index), rowId, beginSnapshot);
    }
}
