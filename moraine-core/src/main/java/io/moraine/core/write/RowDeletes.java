package io.moraine.core.write;

import io.moraine.core.error.InvalidArgumentException;

import java.util.Collections;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Rows an engine deletes from one table, as its scan identified them: rows of committed data files by (data file id,
 * position in the file), and committed inlined rows by row id. Duplicates are allowed (DuckLake's DELETE tolerates
 * them); at commit each data file's positions take the path DuckLake 1.5.5 would give them (inlined file deletes, a
 * delete file merged with the file's current one, or the file retired whole).
 */
public final class RowDeletes
{
    private final Map<Long, NavigableSet<Long>> filePositions = new TreeMap<>();
    private final Map<String, NavigableSet<Long>> pathPositions = new TreeMap<>();
    private final NavigableSet<Long> inlinedRowIds = new TreeSet<>();

    public static RowDeletes create()
    {
        return new RowDeletes();
    }

    /** Deletes the row at {@code position} (0-based, the scan's file row number) of data file {@code dataFileId}. */
    public RowDeletes fileRow(long dataFileId, long position)
    {
        if (position < 0) {
            throw new InvalidArgumentException("position " + position + " in data file " + dataFileId + " is negative; positions count rows from 0");
        }
        filePositions.computeIfAbsent(dataFileId, ignored -> new TreeSet<>()).add(position);
        return this;
    }

    /**
     * Deletes the row at {@code position} of the data file at {@code dataFilePath}, the full path a scan reads it from
     * (DuckDB's {@code filename}); resolved to the file's id at the transaction's snapshot.
     */
    public RowDeletes fileRow(String dataFilePath, long position)
    {
        if (position < 0) {
            throw new InvalidArgumentException("position " + position + " in data file " + dataFilePath + " is negative; positions count rows from 0");
        }
        pathPositions.computeIfAbsent(dataFilePath, ignored -> new TreeSet<>()).add(position);
        return this;
    }

    /** Deletes the committed inlined row with row id {@code rowId}. */
    public RowDeletes inlinedRow(long rowId)
    {
        inlinedRowIds.add(rowId);
        return this;
    }

    public boolean isEmpty()
    {
        return filePositions.isEmpty() && pathPositions.isEmpty() && inlinedRowIds.isEmpty();
    }

    Map<Long, NavigableSet<Long>> filePositions()
    {
        return Collections.unmodifiableMap(filePositions);
    }

    Map<String, NavigableSet<Long>> pathPositions()
    {
        return Collections.unmodifiableMap(pathPositions);
    }

    NavigableSet<Long> inlinedRowIds()
    {
        return Collections.unmodifiableNavigableSet(inlinedRowIds);
    }
}
