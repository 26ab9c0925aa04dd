package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.moraine.core.types.PrimitiveKind;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.type.Type;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A top-level column: its DuckLake column id (the Parquet field id), name, Trino type, and initial_default, the value
 * rows written before the column existed read as (reference §4.7). With a {@code path} it is a nested field of that
 * column reached through struct fields (a pushed-down dereference such as {@code s.a}): the field ids from the column
 * down, {@code name}, {@code type} and {@code duckLakeType} being the field's.
 */
public record MoraineColumnHandle(long columnId, String name, Type type, String duckLakeType, java.util.Optional<String> initialDefault, List<Long> path)
        implements ColumnHandle
{
    @JsonCreator
    public MoraineColumnHandle(@JsonProperty("columnId") long columnId, @JsonProperty("name") String name, @JsonProperty("type") Type type,
            @JsonProperty("duckLakeType") String duckLakeType, @JsonProperty("initialDefault") java.util.Optional<String> initialDefault,
            @JsonProperty("path") List<Long> path)
    {
        this.columnId = columnId;
        this.name = requireNonNull(name, "name is null");
        this.type = requireNonNull(type, "type is null");
        this.duckLakeType = requireNonNull(duckLakeType, "duckLakeType is null");
        this.initialDefault = requireNonNull(initialDefault, "initialDefault is null");
        this.path = List.copyOf(requireNonNull(path, "path is null"));
    }

    /** A top-level column. */
    public MoraineColumnHandle(long columnId, String name, Type type, String duckLakeType, java.util.Optional<String> initialDefault)
    {
        this(columnId, name, type, duckLakeType, initialDefault, List.of());
    }

    @Override
    @JsonProperty
    public List<Long> path()
    {
        return path;
    }

    /** Whether this is a nested field of the column rather than the column. */
    public boolean isDereference()
    {
        return !path.isEmpty();
    }

    /** The id of what this handle reads: the column's, or the nested field's. */
    public long leafColumnId()
    {
        return path.isEmpty() ? columnId : path.getLast();
    }

    @Override
    @JsonProperty
    public String duckLakeType()
    {
        return duckLakeType;
    }

    @Override
    @JsonProperty
    public java.util.Optional<String> initialDefault()
    {
        return initialDefault;
    }

    /**
     * The initial default as a Trino value of the column's type, or empty for NULL. Defaults of nested columns are not
     * read yet (DuckDB writes none for them).
     */
    public java.util.Optional<Object> initialDefaultValue()
    {
        if (initialDefault.isEmpty() || isDereference()) {
            return java.util.Optional.empty();
        }
        io.moraine.core.types.TableColumn column = new io.moraine.core.types.TableColumn(columnId, name,
                io.moraine.core.types.DuckLakeType.parseScalar(name, duckLakeType), initialDefault);
        return column.initialDefaultValue().map(value -> TrinoValues.toTrino(type, value, name));
    }

    /** The handle of a hidden column ({@code $path}, {@code $row_id}, ...). */
    public static MoraineColumnHandle hidden(io.moraine.core.scan.HiddenColumn column)
    {
        return new MoraineColumnHandle(column.columnId(), column.columnName(), column.isText() ? io.trino.spi.type.VarcharType.VARCHAR : io.trino.spi.type.BigintType.BIGINT,
                (column.isText() ? PrimitiveKind.VARCHAR : PrimitiveKind.INT64).duckLakeName(), java.util.Optional.empty());
    }

    /** Which hidden column this is, or empty for a column of the table. */
    public java.util.Optional<io.moraine.core.scan.HiddenColumn> hiddenColumn()
    {
        return io.moraine.core.scan.HiddenColumn.ofColumnId(columnId);
    }

    /** Whether the column is a DuckDB INTERVAL, which Trino reads as its DuckDB text. */
    public boolean isInterval()
    {
        // The type by the core's names (case-insensitive, as the catalog's); a decimal or nested type is no scalar kind.
        return PrimitiveKind.byName(duckLakeType).orElse(null) == PrimitiveKind.INTERVAL;
    }

    @Override
    @JsonProperty
    public long columnId()
    {
        return columnId;
    }

    @Override
    @JsonProperty
    public String name()
    {
        return name;
    }

    @Override
    @JsonProperty
    public Type type()
    {
        return type;
    }
}
