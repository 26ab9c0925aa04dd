package io.moraine.core.changes;

/** A row's {@code change_type} in {@code table_changes}, spelled as DuckLake spells it ({@link #sqlName()}). */
public enum ChangeType
{
    INSERT("insert"),
    DELETE("delete"),
    UPDATE_PREIMAGE("update_preimage"),
    UPDATE_POSTIMAGE("update_postimage");

    private final String sqlName;

    ChangeType(String sqlName)
    {
        this.sqlName = sqlName;
    }

    public String sqlName()
    {
        return sqlName;
    }
}
