package io.moraine.spark;

import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

import java.util.List;
import java.util.Optional;

/** The per-row metadata a moraine table offers beside its columns; hidden from {@code SELECT *}. */
final class MetadataColumns
{
    enum Kind
    {
        FILE, FILE_ID, POS, ROW_ID, SNAPSHOT_ID
    }

    /** One metadata column: Spark's view of it and which value it is. */
    record Column(String name, DataType dataType, boolean isNullable, String comment, Kind kind)
            implements MetadataColumn {}

    static final List<Column> ALL = List.of(
            new Column("_file", DataTypes.StringType, true, "the data file holding the row (NULL for inlined rows)", Kind.FILE),
            new Column("_file_id", DataTypes.LongType, true, "the DuckLake data_file_id of the file holding the row (NULL for inlined rows)", Kind.FILE_ID),
            new Column("_pos", DataTypes.LongType, true, "the row's position in its data file (NULL for inlined rows)", Kind.POS),
            new Column("_row_id", DataTypes.LongType, false, "the row's DuckLake rowid, kept across updates, compaction and flush", Kind.ROW_ID),
            new Column("_snapshot_id", DataTypes.LongType, false, "the snapshot that wrote the row", Kind.SNAPSHOT_ID));

    private MetadataColumns() {}

    static Optional<Column> byName(String name)
    {
        return ALL.stream().filter(column -> column.name().equals(name)).findFirst();
    }
}
