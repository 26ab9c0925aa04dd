package io.moraine.core.row;

import io.moraine.core.error.InvalidArgumentException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static java.util.Objects.requireNonNull;

/**
 * One row of a {@code ducklake_*} table: a value (or SQL NULL) for every column of its {@link TableKind}, in DDL
 * order. Rows are immutable and carry exactly what DuckLake authored. A row read from the store also carries its
 * {@link #duplicate() duplicate number}, which says where it is stored among rows with the same key cells (only kinds
 * that {@link TableKind#allowsDuplicateKeys() allow such rows} have any); it is not a value and takes no part in
 * {@link #equals}.
 */
public final class Row
{
    private final TableKind kind;
    private final Object[] values;
    private final long duplicate;

    private Row(TableKind kind, Object[] values, long duplicate)
    {
        this.kind = kind;
        this.values = values;
        this.duplicate = duplicate;
    }

    /** A row from values in DDL column order; every value is checked against its column's type. */
    public static Row of(TableKind kind, Object... values)
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(values, "values is null");
        List<Column> columns = kind.columns();
        if (values.length != columns.size()) {
            throw new InvalidArgumentException(kind.tableName() + " has " + columns.size() + " columns " + columnNames(kind)
                    + " but the row has " + values.length + " values");
        }
        Object[] copy = values.clone();
        for (int i = 0; i < copy.length; i++) {
            copy[i] = normalize(copy[i]);
            columns.get(i).type().check(kind.tableName(), columns.get(i).name(), copy[i]);
        }
        return new Row(kind, copy, 0);
    }

    /** A row from column names to values; columns not named are SQL NULL, unknown names are refused. */
    public static Row ofMap(TableKind kind, Map<String, ?> cells)
    {
        Object[] values = new Object[kind.columns().size()];
        cells.forEach((name, value) -> values[kind.columnIndex(name)] = value);
        return of(kind, values);
    }

    // Integer cells are accepted for BIGINT columns for convenience; they are stored as Long.
    private static Object normalize(Object value)
    {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        return value;
    }

    private static List<String> columnNames(TableKind kind)
    {
        return kind.columns().stream().map(Column::name).toList();
    }

    public TableKind kind()
    {
        return kind;
    }

    public Object get(int index)
    {
        return values[index];
    }

    public Object get(String column)
    {
        return values[kind.columnIndex(column)];
    }

    public Long getLong(String column)
    {
        return (Long) get(column);
    }

    public String getString(String column)
    {
        return (String) get(column);
    }

    /** A copy with one column changed (and the same duplicate number). */
    public Row with(String column, Object value)
    {
        Object[] copy = values.clone();
        copy[kind.columnIndex(column)] = value;
        return of(kind, copy).withDuplicate(duplicate);
    }

    /** A copy with several columns changed (and the same duplicate number). */
    public Row with(Map<String, ?> changes)
    {
        Object[] copy = values.clone();
        changes.forEach((column, value) -> copy[kind.columnIndex(column)] = value);
        return of(kind, copy).withDuplicate(duplicate);
    }

    /**
     * Where the row is stored among the rows of its kind with the same key cells: 0 for the first one (stored under
     * its key cells alone, as every row of every other kind), n &gt; 0 for the one stored under its key cells and n
     * (docs/format.md, "Rows with the same key cells"). Rows built by {@link #of} have 0; the store assigns the
     * number when it inserts a row whose key cells are taken.
     */
    public long duplicate()
    {
        return duplicate;
    }

    /** This row with duplicate number {@code duplicate} (the same values). */
    public Row withDuplicate(long duplicate)
    {
        if (duplicate == this.duplicate) {
            return this;
        }
        if (duplicate < 0 || (duplicate > 0 && !kind.allowsDuplicateKeys())) {
            throw new InvalidArgumentException("duplicate number " + duplicate + " for a " + kind.tableName() + " row: "
                    + (duplicate < 0 ? "it is never negative" : kind.tableName() + " holds no two rows with the same key cells"));
        }
        return new Row(kind, values, duplicate);
    }

    /**
     * The cells that address this row in the store, as {@code StagedOperation}s take them: its key columns' values in
     * key order, then its duplicate number when it is not 0.
     */
    public List<Object> keyCells()
    {
        int[] keyColumns = kind.keyColumnIndexes();
        List<Object> cells = new ArrayList<>(keyColumns.length + 1);
        for (int index : keyColumns) {
            cells.add(values[index]);
        }
        if (duplicate != 0) {
            cells.add(duplicate);
        }
        return cells;
    }

    public List<Object> values()
    {
        return Collections.unmodifiableList(new ArrayList<>(Arrays.asList(values)));
    }

    /** For versioned kinds: whether {@code end_snapshot} is NULL, i.e. the row belongs to the current state. */
    public boolean isCurrent()
    {
        return !kind.isVersioned() || get("end_snapshot") == null;
    }

    /** For versioned kinds: {@code begin_snapshot <= s && (end_snapshot IS NULL || s < end_snapshot)} ({@link VersionVisibility}). */
    public boolean isVisibleAt(long snapshotId)
    {
        if (!kind.isVersioned()) {
            return true;
        }
        Long begin = getLong("begin_snapshot");
        Long end = getLong("end_snapshot");
        return begin != null && VersionVisibility.visibleAt(begin, end, snapshotId);
    }

    @Override
    public boolean equals(Object o)
    {
        return o instanceof Row other && kind == other.kind && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(kind, Arrays.hashCode(values));
    }

    @Override
    public String toString()
    {
        StringBuilder builder = new StringBuilder(kind.tableName()).append('(');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                builder.append(", ");
            }
            builder.append(kind.columns().get(i).name()).append('=').append(values[i]);
        }
        return builder.append(')').toString();
    }
}
