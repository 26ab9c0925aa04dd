package io.moraine.core.catalog;

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
 * order. Rows are immutable and carry exactly what DuckLake authored.
 */
public final class Row
{
    private final TableKind kind;
    private final Object[] values;

    private Row(TableKind kind, Object[] values)
    {
        this.kind = kind;
        this.values = values;
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
        return new Row(kind, copy);
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

    /** A copy with one column changed. */
    public Row with(String column, Object value)
    {
        Object[] copy = values.clone();
        copy[kind.columnIndex(column)] = value;
        return of(kind, copy);
    }

    /** A copy with several columns changed. */
    public Row with(Map<String, ?> changes)
    {
        Object[] copy = values.clone();
        changes.forEach((column, value) -> copy[kind.columnIndex(column)] = value);
        return of(kind, copy);
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

    /** For versioned kinds: {@code begin_snapshot <= s && (end_snapshot IS NULL || s < end_snapshot)}. */
    public boolean isVisibleAt(long snapshotId)
    {
        if (!kind.isVersioned()) {
            return true;
        }
        Long begin = getLong("begin_snapshot");
        Long end = getLong("end_snapshot");
        return begin != null && begin <= snapshotId && (end == null || snapshotId < end);
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
