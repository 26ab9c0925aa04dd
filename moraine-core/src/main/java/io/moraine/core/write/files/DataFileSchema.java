package io.moraine.core.write.files;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

import java.util.ArrayList;
import java.util.List;

import static org.apache.parquet.schema.LogicalTypeAnnotation.intType;

/**
 * The Parquet schema of a DuckLake data file, node for node as DuckDB 1.5.5's writer lays out a table's columns
 * (reference writes §3.2): message {@code duckdb_schema}, every column and nested child {@code optional} with its column
 * id as field id, structs as plain groups, lists as 3-level {@code LIST} groups whose {@code list} wrapper has no id,
 * maps as {@code MAP} groups of {@code key_value {required key, optional value}}, HUGEINT and UHUGEINT as DOUBLE, and
 * the physical and logical type of each scalar as DuckDB writes it.
 */
public final class DataFileSchema
{
    /** The name DuckDB gives a file's root. */
    public static final String ROOT_NAME = "duckdb_schema";
    public static final String ROW_ID_NAME = "_ducklake_internal_row_id";
    public static final String SNAPSHOT_ID_NAME = "_ducklake_internal_snapshot_id";
    private static final int VARIANT_SPEC_VERSION = 1;

    /** How HUGEINT and UHUGEINT columns are written. */
    public enum HugeintEncoding
    {
        /** As DuckDB writes them: DOUBLE, which rounds above 2^53 (and DuckLake records no bounds for them). */
        DOUBLE,
        /** DECIMAL(38, 0) in 16 bytes: exact for every HUGEINT; DuckDB reads it back into the column's type. */
        DECIMAL
    }

    private DataFileSchema() {}

    /** The schema of a data file of {@code columns}; with {@code rowIds}, followed by {@code _ducklake_internal_row_id} (update outputs). */
    public static MessageType of(List<TableColumn> columns, boolean rowIds)
    {
        List<Type> fields = new ArrayList<>();
        for (TableColumn column : columns) {
            fields.add(column(column, HugeintEncoding.DOUBLE));
        }
        if (rowIds) {
            fields.add(rowIdColumn());
        }
        return new MessageType(ROOT_NAME, fields);
    }

    /** The hidden row-id column, {@code optional int64 _ducklake_internal_row_id = 2147483540}. */
    public static Type rowIdColumn()
    {
        return Types.optional(PrimitiveTypeName.INT64).id(DataFileTask.ROW_ID_FIELD_ID).named(ROW_ID_NAME);
    }

    /** The hidden snapshot-id column, {@code optional int64 _ducklake_internal_snapshot_id = 2147483539}. */
    public static Type snapshotIdColumn()
    {
        return Types.optional(PrimitiveTypeName.INT64).id(DataFileTask.SNAPSHOT_ID_FIELD_ID).named(SNAPSHOT_ID_NAME);
    }

    /** One column and its children, each with its column id as field id. */
    public static Type column(TableColumn column, HugeintEncoding hugeints)
    {
        return node(column, column.name(), Type.Repetition.OPTIONAL, hugeints);
    }

    private static Type node(TableColumn column, String name, Type.Repetition repetition, HugeintEncoding hugeints)
    {
        int id = Math.toIntExact(column.columnId());
        return switch (column.type()) {
            case DuckLakeType.StructOf struct -> {
                List<Type> children = new ArrayList<>();
                for (TableColumn field : struct.fields()) {
                    children.add(node(field, field.name(), Type.Repetition.OPTIONAL, hugeints));
                }
                yield new GroupType(repetition, name, children).withId(id);
            }
            case DuckLakeType.ListOf list -> Types.buildGroup(repetition).as(LogicalTypeAnnotation.listType())
                    .addField(Types.repeatedGroup().addField(node(list.element(), "element", Type.Repetition.OPTIONAL, hugeints)).named("list"))
                    .id(id).named(name);
            case DuckLakeType.MapOf map -> Types.buildGroup(repetition).as(LogicalTypeAnnotation.mapType())
                    .addField(Types.repeatedGroup()
                            .addField(node(map.key(), "key", Type.Repetition.REQUIRED, hugeints))
                            .addField(node(map.value(), "value", Type.Repetition.OPTIONAL, hugeints))
                            .named("key_value"))
                    .id(id).named(name);
            case DuckLakeType.Decimal decimal -> decimal(decimal.precision(), decimal.scale(), repetition).id(id).named(name);
            case DuckLakeType.Primitive primitive when primitive.kind() == PrimitiveKind.VARIANT -> variant(repetition).id(id).named(name);
            case DuckLakeType.Primitive primitive -> primitive(primitive.kind(), column.name(), repetition, hugeints).id(id).named(name);
        };
    }

    /** An unshredded VARIANT group, as DuckDB writes one without its {@code typed_value}; the field id goes on the group. */
    private static Types.GroupBuilder<GroupType> variant(Type.Repetition repetition)
    {
        return Types.buildGroup(repetition).as(LogicalTypeAnnotation.variantType((byte) VARIANT_SPEC_VERSION))
                .required(PrimitiveTypeName.BINARY).named("metadata")
                .required(PrimitiveTypeName.BINARY).named("value");
    }

    private static Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> primitive(PrimitiveKind kind, String column, Type.Repetition repetition,
            HugeintEncoding hugeints)
    {
        return switch (kind) {
            case BOOLEAN -> Types.primitive(PrimitiveTypeName.BOOLEAN, repetition);
            case INT8 -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(intType(8, true));
            case INT16 -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(intType(16, true));
            case INT32 -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(intType(32, true));
            case INT64 -> Types.primitive(PrimitiveTypeName.INT64, repetition).as(intType(64, true));
            case UINT8 -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(intType(8, false));
            case UINT16 -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(intType(16, false));
            case UINT32 -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(intType(32, false));
            case UINT64 -> Types.primitive(PrimitiveTypeName.INT64, repetition).as(intType(64, false));
            case INT128, UINT128 -> hugeints == HugeintEncoding.DOUBLE ? Types.primitive(PrimitiveTypeName.DOUBLE, repetition) : decimal(38, 0, repetition);
            case FLOAT32 -> Types.primitive(PrimitiveTypeName.FLOAT, repetition);
            case FLOAT64 -> Types.primitive(PrimitiveTypeName.DOUBLE, repetition);
            case DATE -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(LogicalTypeAnnotation.dateType());
            case TIME -> Types.primitive(PrimitiveTypeName.INT64, repetition).as(LogicalTypeAnnotation.timeType(false, TimeUnit.MICROS));
            case TIME_NS -> Types.primitive(PrimitiveTypeName.INT64, repetition).as(LogicalTypeAnnotation.timeType(false, TimeUnit.NANOS));
            case TIMETZ -> Types.primitive(PrimitiveTypeName.INT64, repetition).as(LogicalTypeAnnotation.timeType(true, TimeUnit.MICROS));
            // DuckDB writes TIMESTAMP_S as microseconds.
            case TIMESTAMP, TIMESTAMP_S -> Types.primitive(PrimitiveTypeName.INT64, repetition).as(LogicalTypeAnnotation.timestampType(false, TimeUnit.MICROS));
            case TIMESTAMP_MS -> Types.primitive(PrimitiveTypeName.INT64, repetition).as(LogicalTypeAnnotation.timestampType(false, TimeUnit.MILLIS));
            case TIMESTAMP_NS -> Types.primitive(PrimitiveTypeName.INT64, repetition).as(LogicalTypeAnnotation.timestampType(false, TimeUnit.NANOS));
            case TIMESTAMPTZ -> Types.primitive(PrimitiveTypeName.INT64, repetition).as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS));
            case INTERVAL -> Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition).length(12)
                    .as(LogicalTypeAnnotation.IntervalLogicalTypeAnnotation.getInstance());
            case VARCHAR -> Types.primitive(PrimitiveTypeName.BINARY, repetition).as(LogicalTypeAnnotation.stringType());
            case JSON -> Types.primitive(PrimitiveTypeName.BINARY, repetition).as(LogicalTypeAnnotation.jsonType());
            case BLOB -> Types.primitive(PrimitiveTypeName.BINARY, repetition);
            case UUID -> Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition).length(16).as(LogicalTypeAnnotation.uuidType());
            case VARIANT, GEOMETRY -> throw new UnsupportedFeatureException("column " + column + " is of type " + kind.duckLakeName()
                    + ", which moraine cannot lay out in a Parquet data file yet; write this table's data with DuckDB");
        };
    }

    /** DuckDB's decimal storage: INT32 up to precision 9, INT64 up to 18, 16-byte FIXED_LEN_BYTE_ARRAY above. */
    private static Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> decimal(int precision, int scale, Type.Repetition repetition)
    {
        LogicalTypeAnnotation annotation = LogicalTypeAnnotation.decimalType(scale, precision);
        if (precision <= 9) {
            return Types.primitive(PrimitiveTypeName.INT32, repetition).as(annotation);
        }
        if (precision <= 18) {
            return Types.primitive(PrimitiveTypeName.INT64, repetition).as(annotation);
        }
        return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition).length(16).as(annotation);
    }
}
