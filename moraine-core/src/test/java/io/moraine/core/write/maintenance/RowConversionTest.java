package io.moraine.core.write.maintenance;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.files.DataFileSchema;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A source row read into the table's layout: by name mapping or field id, widened, missing columns NULL. */
class RowConversionTest
{
    private static final TableColumn A = new TableColumn(4, "a", new DuckLakeType.Primitive(PrimitiveKind.INT64), Optional.empty());
    private static final TableColumn B = new TableColumn(5, "b", new DuckLakeType.Primitive(PrimitiveKind.VARCHAR), Optional.empty());
    private static final List<TableColumn> COLUMNS = List.of(
            new TableColumn(1, "id", new DuckLakeType.Primitive(PrimitiveKind.INT64), Optional.empty()),
            new TableColumn(2, "v", new DuckLakeType.Primitive(PrimitiveKind.VARCHAR), Optional.empty()),
            new TableColumn(3, "s", new DuckLakeType.StructOf(List.of(A, B)), Optional.empty()),
            new TableColumn(6, "d", new DuckLakeType.Primitive(PrimitiveKind.FLOAT64), Optional.empty()));
    private static final MessageType TARGET = DataFileSchema.of(COLUMNS, false);

    /** A file added by name: other case, SMALLINT and FLOAT, a reordered struct with an INTEGER, an extra column, no v. */
    private static final MessageType ADDED = Types.buildMessage()
            .optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.intType(16, true)).named("ID")
            .optionalGroup()
                .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("b")
                .optional(PrimitiveTypeName.INT32).named("a")
                .named("s")
            .optional(PrimitiveTypeName.FLOAT).named("d")
            .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("x")
            .named("duckdb_schema");

    @Test
    void aFileAddedByNameIsReadThroughItsMapping()
    {
        List<Row> mapping = List.of(mapping(0, "ID", 1, null), mapping(1, "s", 3, null), mapping(2, "b", 5, 1L), mapping(3, "a", 4, 1L),
                mapping(4, "d", 6, null));
        Group source = new SimpleGroup(ADDED);
        source.add(0, -7);
        Group struct = source.addGroup(1);
        struct.add(0, Binary.fromString("m"));
        struct.add(1, 42);
        source.add(2, 1.5f);
        source.add(3, Binary.fromString("extra"));

        Group converted = RowConversion.of(ADDED, TARGET, Optional.of(mapping), Set.of(), "f.parquet").convert(source);
        assertThat(converted.getLong(0, 0)).isEqualTo(-7);
        assertThat(converted.getFieldRepetitionCount(1)).isZero();
        assertThat(converted.getGroup(2, 0).getLong(0, 0)).isEqualTo(42);
        assertThat(converted.getGroup(2, 0).getString(1, 0)).isEqualTo("m");
        assertThat(converted.getDouble(3, 0)).isEqualTo(1.5);

        // a missing column with a default value is not filled in
        assertThatThrownBy(() -> RowConversion.of(ADDED, TARGET, Optional.of(mapping), Set.of(2), "f.parquet"))
                .isInstanceOf(UnsupportedFeatureException.class).hasMessageContaining("f.parquet").hasMessageContaining("column v");
    }

    @Test
    void aFileWithFieldIdsIsReadByThemAndAnUnconvertibleColumnIsRefused()
    {
        MessageType other = Types.buildMessage()
                .optional(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MILLIS)).id(1).named("id")
                .named("spark_schema");
        assertThatThrownBy(() -> RowConversion.of(other, TARGET, Optional.empty(), Set.of(), "g.parquet"))
                .isInstanceOf(UnsupportedFeatureException.class).hasMessageContaining("g.parquet").hasMessageContaining("through DuckDB");
        MessageType narrower = Types.buildMessage()
                .optional(PrimitiveTypeName.INT32).id(1).named("renamed")
                .named("spark_schema");
        Group source = new SimpleGroup(narrower);
        source.add(0, 12);
        Group converted = RowConversion.of(narrower, TARGET, Optional.empty(), Set.of(), "h.parquet").convert(source);
        assertThat(converted.getLong(0, 0)).isEqualTo(12);
        assertThat(converted.getFieldRepetitionCount(2)).isZero();
    }

    private static Row mapping(long columnId, String sourceName, long targetFieldId, Long parent)
    {
        return Row.of(TableKind.NAME_MAPPING, 9L, columnId, sourceName, targetFieldId, parent, false);
    }
}
