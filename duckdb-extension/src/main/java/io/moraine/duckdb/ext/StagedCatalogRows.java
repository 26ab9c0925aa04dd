package io.moraine.duckdb.ext;

import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.StoreFacts;
import io.moraine.core.catalog.TableKind;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.tx.StagedOperation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One ducklake_* table as a DuckDB transaction sees it: the rows the store held when the transaction first read the
 * table, then the rows it inserted. DuckDB's row id of a row is its position here, stable for the transaction; a
 * deleted row keeps its position (and is no longer served). At commit the differences become the core's staged-row
 * operations.
 */
final class StagedCatalogRows
{
    private final TableKind kind;
    private final List<Row> read;
    // Per position: the row as the transaction has it now (null once deleted).
    private final List<Object[]> rows = new ArrayList<>();
    private boolean changed;

    StagedCatalogRows(TableKind kind, List<Row> read)
    {
        this.kind = kind;
        this.read = List.copyOf(read);
        for (Row row : read) {
            rows.add(row.values().toArray());
        }
    }

    TableKind kind()
    {
        return kind;
    }

    int size()
    {
        return rows.size();
    }

    /** The cells at {@code position}, or null if the transaction deleted that row. */
    Object[] at(int position)
    {
        return rows.get(position);
    }

    void insert(Object[] cells)
    {
        rows.add(cells.clone());
        changed = true;
    }

    void update(long rowId, int[] columns, Object[] values)
    {
        Object[] cells = live(rowId, "UPDATE");
        Object[] updated = cells.clone();
        for (int i = 0; i < columns.length; i++) {
            updated[columns[i]] = values[i];
        }
        rows.set((int) rowId, updated);
        changed = true;
    }

    void delete(long rowId)
    {
        live(rowId, "DELETE");
        rows.set((int) rowId, null);
        changed = true;
    }

    boolean changed()
    {
        return changed;
    }

    private Object[] live(long rowId, String statement)
    {
        if (rowId < 0 || rowId >= rows.size() || rows.get((int) rowId) == null) {
            throw new InvalidArgumentException(statement + " on " + kind.tableName() + " names row id " + rowId
                    + ", which this transaction does not see; row ids come from a scan in the same transaction");
        }
        return rows.get((int) rowId);
    }

    /** The ducklake_metadata rows this transaction inserted that are store facts (version, created_by, data_path, encrypted). */
    Map<String, String> insertedFacts()
    {
        Map<String, String> facts = new LinkedHashMap<>();
        for (int position = read.size(); position < rows.size(); position++) {
            Object[] cells = rows.get(position);
            if (cells != null && kind == TableKind.METADATA && StoreFacts.isFact(Row.of(kind, cells))) {
                facts.put((String) cells[0], (String) cells[1]);
            }
        }
        return facts;
    }

    /** The staged-row operations that turn the rows read into the rows now held. */
    List<StagedOperation> operations()
    {
        List<StagedOperation> operations = new ArrayList<>();
        for (int position = 0; position < rows.size(); position++) {
            Object[] now = rows.get(position);
            if (position >= read.size()) {
                if (now != null && !(kind == TableKind.METADATA && StoreFacts.isFact(Row.of(kind, now)))) {
                    operations.add(new StagedOperation.Insert(Row.of(kind, now)));
                }
                continue;
            }
            Row before = read.get(position);
            if (now == null) {
                requireNotFact(before, "DELETE");
                operations.add(new StagedOperation.Delete(kind, key(before.values().toArray())));
                continue;
            }
            if (!Arrays.equals(before.values().toArray(), now)) {
                requireNotFact(before, "UPDATE");
                operations.addAll(changesOf(before, now));
            }
        }
        return operations;
    }

    /** An end_snapshot set on a current row ends it; other columns change in place; a new key is a delete and an insert. */
    private List<StagedOperation> changesOf(Row before, Object[] now)
    {
        Object[] was = before.values().toArray();
        if (!key(was).equals(key(now))) {
            return List.of(new StagedOperation.Delete(kind, key(was)), new StagedOperation.Insert(Row.of(kind, now)));
        }
        int end = kind.hasColumn("end_snapshot") ? kind.columnIndex("end_snapshot") : -1;
        Map<String, Object> changes = new LinkedHashMap<>();
        for (int i = 0; i < was.length; i++) {
            if (i != end && !Objects.equals(was[i], now[i])) {
                changes.put(kind.columns().get(i).name(), now[i]);
            }
        }
        List<StagedOperation> operations = new ArrayList<>();
        if (!changes.isEmpty()) {
            operations.add(new StagedOperation.Update(kind, key(was), changes, java.util.Optional.of(before)));
        }
        if (end >= 0 && !Objects.equals(was[end], now[end])) {
            if (was[end] != null || now[end] == null || !kind.isVersioned()) {
                throw new InvalidArgumentException("UPDATE of " + kind.tableName() + " changes end_snapshot from " + was[end] + " to "
                        + now[end] + "; moraine accepts only ending a current row (setting end_snapshot where it is NULL)");
            }
            operations.add(new StagedOperation.EndRow(kind, key(was), (Long) now[end]));
        }
        return operations;
    }

    private void requireNotFact(Row row, String statement)
    {
        if (kind == TableKind.METADATA && StoreFacts.isFact(row)) {
            throw new InvalidArgumentException(statement + " of ducklake_metadata's '" + row.getString("key") + "' is not supported: "
                    + "moraine keeps version, created_by, data_path and encrypted as store facts, set when the lake is created");
        }
    }

    private List<Object> key(Object[] cells)
    {
        List<Object> key = new ArrayList<>();
        for (int index : kind.keyColumnIndexes()) {
            key.add(cells[index]);
        }
        return key;
    }
}
