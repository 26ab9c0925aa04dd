package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.type.Type;

import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * A column of a change-feed call's rows: {@code snapshot_id}, {@code rowid}, {@code change_type} (of
 * {@code table_changes}), or one of the table's columns at the end snapshot.
 */
public record ChangeFeedColumnHandle(Field field, Optional<MoraineColumnHandle> tableColumn)
        implements ColumnHandle
{
    public enum Field
    {
        SNAPSHOT_ID("snapshot_id"),
        ROWID("rowid"),
        CHANGE_TYPE("change_type"),
        TABLE_COLUMN(null);

        private final String columnName;

        Field(String columnName)
        {
            this.columnName = columnName;
        }
    }

    public static final ChangeFeedColumnHandle SNAPSHOT_ID = new ChangeFeedColumnHandle(Field.SNAPSHOT_ID, Optional.empty());
    public static final ChangeFeedColumnHandle ROWID = new ChangeFeedColumnHandle(Field.ROWID, Optional.empty());
    public static final ChangeFeedColumnHandle CHANGE_TYPE = new ChangeFeedColumnHandle(Field.CHANGE_TYPE, Optional.empty());

    @JsonCreator
    public ChangeFeedColumnHandle(@JsonProperty("field") Field field, @JsonProperty("tableColumn") Optional<MoraineColumnHandle> tableColumn)
    {
        this.field = requireNonNull(field, "field is null");
        this.tableColumn = requireNonNull(tableColumn, "tableColumn is null");
        if ((field == Field.TABLE_COLUMN) != tableColumn.isPresent()) {
            throw new IllegalArgumentException("a change-feed column is a table column exactly when it has one: " + field + ", " + tableColumn);
        }
    }

    static ChangeFeedColumnHandle of(MoraineColumnHandle tableColumn)
    {
        return new ChangeFeedColumnHandle(Field.TABLE_COLUMN, Optional.of(tableColumn));
    }

    @Override
    @JsonProperty
    public Field field()
    {
        return field;
    }

    @Override
    @JsonProperty
    public Optional<MoraineColumnHandle> tableColumn()
    {
        return tableColumn;
    }

    public String name()
    {
        return tableColumn.map(MoraineColumnHandle::name).orElse(field.columnName);
    }

    public Type type()
    {
        return switch (field) {
            case SNAPSHOT_ID, ROWID -> BIGINT;
            case CHANGE_TYPE -> VARCHAR;
            case TABLE_COLUMN -> tableColumn.orElseThrow().type();
        };
    }

    @Override
    public String toString()
    {
        return name() + ":" + type().getDisplayName();
    }
}
