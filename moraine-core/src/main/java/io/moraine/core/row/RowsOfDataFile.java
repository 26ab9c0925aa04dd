package io.moraine.core.row;

import com.google.common.collect.PeekingIterator;

import java.util.ArrayList;
import java.util.List;

/** Reads the rows of one data file from a catalog stream ordered by {@code data_file_id} (stats, partition values). */
public final class RowsOfDataFile
{
    private RowsOfDataFile() {}

    /** The rows of {@code fileId} at the head of {@code rows}, skipping those of earlier files. */
    public static List<Row> take(PeekingIterator<Row> rows, long fileId)
    {
        List<Row> result = new ArrayList<>();
        while (rows.hasNext() && rows.peek().getLong("data_file_id") <= fileId) {
            Row row = rows.next();
            if (row.getLong("data_file_id") == fileId) {
                result.add(row);
            }
        }
        return result;
    }
}
