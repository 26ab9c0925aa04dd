package io.moraine.duckdb.ext;

import io.moraine.core.row.Row;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.tx.StagedOperation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One ducklake_* table as a DuckDB transaction sees it: the rows the store held when the transaction first read the
 * table, then the rows it inserted. DuckDB's row id of a row is its position here, stable for the transaction; a
 * deleted row keeps its position (and is no longer served). The rows read are shared, unmodified (the catalog may
 * serve the same list to the next transaction): what the transaction changes is held beside them, and at commit
 * those differences become the core's staged-row operations.
 */
final class StagedCatalogRows
{
    private final TableKind kind;
    private final List<Row> read;
    // Read positions the transaction updated (the row as it is now) or deleted (null).
    private final Map<Integer, Row> changedReads = new TreeMap<>();
    private final List<Row> inserted = new ArrayList<>();

    StagedCatalogRows(TableKind kind, List<Row> read)
    {
        this.kind = kind;
        this.read = read;
    }

    TableKind kind()
    {
        return kind;
    }

    int size()
    {
        return read.size() + inserted.size();
    }

    /** The row at {@code position}, or null if the transaction deleted it. */
    Row at(int position)
    {
        if (position >= read.size()) {
            return inserted.get(position - read.size());
        }
        if (changedReads.isEmpty()) {
            return read.get(position);
        }
        Integer boxed = position;
        return changedReads.containsKey(boxed) ? changedReads.get(boxed) : read.get(position);
    }

    void insert(Object[] cells)
    {
        inserted.add(Row.of(kind, cells));
    }

    void update(long rowId, int[] columns, Object[] values)
    {
        Row row = live(rowId, "UPDATE");
        Object[] cells = new Object[kind.columns().size()];
        for (int i = 0; i < cells.length; i++) {
            cells[i] = row.get(i);
        }
        for (int i = 0; i < columns.length; i++) {
            cells[columns[i]] = values[i];
        }
        set((int) rowId, Row.of(kind, cells).withDuplicate(row.duplicate()));
    }

    void delete(long rowId)
    {
        live(rowId, "DELETE");
        set((int) rowId, null);
    }

    private void set(int position, Row row)
    {
        if (position >= read.size()) {
            inserted.set(position - read.size(), row);
        }
        else {
            changedReads.put(position, row);
        }
    }

    /** The rows read, shared and never modified; the rows now held when {@link #changed()} is false. */
    List<Row> read()
    {
        return read;
    }

    boolean changed()
    {
        return changedRead() || !inserted.isEmpty();
    }

    /** Whether the transaction updated or deleted a row it read (inserted rows come after them all). */
    boolean changedRead()
    {
        return !changedReads.isEmpty();
    }

    private Row live(long rowId, String statement)
    {
        if (rowId < 0 || rowId >= size() || at((int) rowId) == null) {
            throw new InvalidArgumentException(statement + " on " + kind.tableName() + " names row id " + rowId
                    + ", which this transaction does not see; row ids come from a scan in the same transaction");
        }
        return at((int) rowId);
    }

    /** The ducklake_metadata rows this transaction inserted that are store facts (version, created_by, data_path, encrypted). */
    Map<String, String> insertedFacts()
    {
        Map<String, String> facts = new LinkedHashMap<>();
        for (Row row : inserted) {
            if (row != null && kind == TableKind.METADATA && StoreFacts.isFact(row)) {
                facts.put(row.getString("key"), row.getString("value"));
            }
        }
        return facts;
    }

    /** The staged-row operations that turn the rows read into the rows now held. */
    List<StagedOperation> operations()
    {
        List<StagedOperation> operations = new ArrayList<>();
        for (Map.Entry<Integer, Row> change : changedReads.entrySet()) {
            Row before = read.get(change.getKey());
            Row now = change.getValue();
            if (now == null) {
                requireNotFact(before, "DELETE");
                operations.add(new StagedOperation.Delete(kind, key(before)));
            }
            else if (!before.equals(now)) {
                requireNotFact(before, "UPDATE");
                operations.addAll(changesOf(before, now));
            }
        }
        for (Row now : inserted) {
            if (now != null && !(kind == TableKind.METADATA && StoreFacts.isFact(now))) {
                operations.add(new StagedOperation.Insert(now));
            }
        }
        return operations;
    }

    /** An end_snapshot set on a current row ends it; other columns change in place; a new key is a delete and an insert. */
    private List<StagedOperation> changesOf(Row before, Row now)
    {
        if (!key(before).equals(key(now))) {
            return List.of(new StagedOperation.Delete(kind, key(before)), new StagedOperation.Insert(now));
        }
        int end = kind.hasColumn("end_snapshot") ? kind.columnIndex("end_snapshot") : -1;
        Map<String, Object> changes = new LinkedHashMap<>();
        for (int i = 0; i < kind.columns().size(); i++) {
            if (i != end && !Objects.equals(before.get(i), now.get(i))) {
                changes.put(kind.columns().get(i).name(), now.get(i));
            }
        }
        List<StagedOperation> operations = new ArrayList<>();
        if (!changes.isEmpty()) {
            operations.add(new StagedOperation.Update(kind, key(before), changes, java.util.Optional.of(before)));
        }
        if (end >= 0 && !Objects.equals(before.get(end), now.get(end))) {
            if (before.get(end) != null || now.get(end) == null || !kind.isVersioned()) {
                throw new InvalidArgumentException("UPDATE of " + kind.tableName() + " changes end_snapshot from " + before.get(end) + " to "
                        + now.get(end) + "; moraine accepts only ending a current row (setting end_snapshot where it is NULL)");
            }
            operations.add(new StagedOperation.EndRow(kind, key(before), (Long) now.get(end)));
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

    /** The cells that address {@code row} in the store: its key cells, and its duplicate number when it has one. */
    private static List<Object> key(Row row)
    {
        return row.keyCells();
    }
}
