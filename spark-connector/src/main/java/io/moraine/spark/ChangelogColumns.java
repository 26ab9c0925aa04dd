package io.moraine.spark;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;

import java.util.List;

/**
 * The columns a moraine change feed adds to the table's: Spark's three ({@code _change_type}, {@code _commit_version}
 * = the snapshot id, {@code _commit_timestamp} = its time), the row's DuckLake rowid ({@code _row_id}, the changelog's
 * row identity) and the snapshot that wrote the row's values ({@code _row_version}).
 */
final class ChangelogColumns
{
    static final String CHANGE_TYPE = "_change_type";
    static final String COMMIT_VERSION = "_commit_version";
    static final String COMMIT_TIMESTAMP = "_commit_timestamp";
    static final String ROW_ID = "_row_id";
    static final String ROW_VERSION = "_row_version";

    static final List<StructField> FIELDS = List.of(
            field(CHANGE_TYPE, DataTypes.StringType),
            field(COMMIT_VERSION, DataTypes.LongType),
            field(COMMIT_TIMESTAMP, DataTypes.TimestampType),
            field(ROW_ID, DataTypes.LongType),
            field(ROW_VERSION, DataTypes.LongType));

    private ChangelogColumns() {}

    private static StructField field(String name, DataType type)
    {
        return new StructField(name, type, false, Metadata.empty());
    }
}
