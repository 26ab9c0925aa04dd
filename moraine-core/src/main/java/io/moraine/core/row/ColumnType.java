package io.moraine.core.row;

import io.moraine.core.error.InvalidArgumentException;

import java.time.Instant;

/**
 * The SQL types of the {@code ducklake_*} catalog columns (DuckDB types of the DuckLake 1.0 bootstrap DDL) and the
 * Java class that carries a value of each.
 */
public enum ColumnType
{
    BIGINT(Long.class),
    VARCHAR(String.class),
    BOOLEAN(Boolean.class),
    /** Microsecond instants, carried as {@link Instant}. */
    TIMESTAMPTZ(Instant.class),
    UUID(java.util.UUID.class);

    private final Class<?> javaType;

    ColumnType(Class<?> javaType)
    {
        this.javaType = javaType;
    }

    public Class<?> javaType()
    {
        return javaType;
    }

    /** Checks that {@code value} is a cell of this type (or SQL NULL), naming the column when it is not. */
    public void check(String table, String column, Object value)
    {
        if (value != null && !javaType.isInstance(value)) {
            throw new InvalidArgumentException("column " + table + "." + column + " is " + name() + " and takes a "
                    + javaType.getSimpleName() + " (or null), but was given a " + value.getClass().getSimpleName()
                    + " (" + value + ")");
        }
        if (value instanceof Instant instant && instant.getNano() % 1000 != 0) {
            throw new InvalidArgumentException("column " + table + "." + column + " is TIMESTAMPTZ with microsecond "
                    + "precision, but " + instant + " has nanoseconds; truncate it to microseconds");
        }
    }
}
