package io.moraine.core.scan;

import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

import java.util.Optional;

/**
 * Parquet fields by field id, the way every reader of a DuckLake data file matches them (reference §4.2): a column's
 * id is its field id at every nesting level, and DuckLake's hidden columns have the fixed ids of
 * {@link DataFileTask#ROW_ID_FIELD_ID} and {@link DataFileTask#SNAPSHOT_ID_FIELD_ID}. Names are not used: a renamed
 * column keeps its id, and a file written before a column was added has no field with that id.
 */
public final class FieldIds
{
    private FieldIds() {}

    /** The child of {@code group} (a file's schema, or a struct in it) whose field id is {@code fieldId}. */
    public static Optional<Type> find(GroupType group, long fieldId)
    {
        for (Type field : group.getFields()) {
            if (field.getId() != null && field.getId().intValue() == fieldId) {
                return Optional.of(field);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code group} has a child whose field id is {@code fieldId}. */
    public static boolean has(GroupType group, long fieldId)
    {
        return find(group, fieldId).isPresent();
    }
}
