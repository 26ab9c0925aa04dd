package io.moraine.duckdb.ext;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.tx.InlineOperation;
import io.moraine.core.tx.StagedOperation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@code ducklake_inlined_delete_<t>} table as one DuckDB transaction sees it: (file_id, row_id, begin_snapshot)
 * rows, those the store held when the transaction first read it, then those it inserted. A row's DuckDB row id is its
 * position. At commit inserts become the core's inlined file deletes, deletes their removal, and a DROP TABLE the
 * removal of the table with every file delete it holds.
 */
final class StagedFileDeletes
{
    private final long tableId;
    private final List<long[]> read;
    private final List<long[]> rows = new ArrayList<>();
    private boolean created;
    private boolean dropped;

    StagedFileDeletes(long tableId, List<long[]> read)
    {
        this.tableId = tableId;
        this.read = List.copyOf(read);
        rows.addAll(read);
    }

    int size()
    {
        return rows.size();
    }

    long[] at(int position)
    {
        return rows.get(position);
    }

    void create()
    {
        created = true;
    }

    /** DROP TABLE, DuckLake's clean-up of a dropped table: its file deletes go with it. */
    void drop()
    {
        dropped = true;
    }

    void insert(long[] row)
    {
        rows.add(row);
    }

    void delete(long position)
    {
        if (position < 0 || position >= rows.size() || rows.get((int) position) == null) {
            throw new InvalidArgumentException("DELETE on ducklake_inlined_delete_" + tableId + " names row id " + position
                    + ", which this transaction does not see");
        }
        rows.set((int) position, null);
    }

    List<StagedOperation> operations()
    {
        if (dropped) {
            return List.of(new InlineOperation.DropFileDeleteTable(tableId));
        }
        List<StagedOperation> operations = new ArrayList<>();
        if (created) {
            // The table exists from now on, even while it holds no delete.
            operations.add(new InlineOperation.DeleteFileRows(tableId, -1, List.of(), 0));
        }
        Map<Long, List<Long>> removed = new TreeMap<>();
        for (int position = 0; position < read.size(); position++) {
            if (rows.get(position) == null) {
                long[] row = read.get(position);
                removed.computeIfAbsent(row[0], file -> new ArrayList<>()).add(row[1]);
            }
        }
        removed.forEach((file, positions) -> operations.add(new InlineOperation.RemoveFileRowDeletes(tableId, file, positions)));
        Map<List<Long>, List<Long>> inserted = new java.util.LinkedHashMap<>();
        for (int position = read.size(); position < rows.size(); position++) {
            long[] row = rows.get(position);
            if (row != null) {
                inserted.computeIfAbsent(List.of(row[0], row[2]), group -> new ArrayList<>()).add(row[1]);
            }
        }
        inserted.forEach((group, positions) -> operations.add(new InlineOperation.DeleteFileRows(tableId, group.get(0), positions, group.get(1))));
        return operations;
    }
}
