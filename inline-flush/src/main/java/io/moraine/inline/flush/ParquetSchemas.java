package io.moraine.inline.flush;

import io.moraine.core.row.ColumnNode;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.inline.ArrowHugeint;
import io.moraine.core.inline.ParquetVariant;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.write.files.DataFileSchema;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Parquet schemas for flushed inlined rows, laid out as DuckDB's writer lays them out: field ids from DuckLake's
 * column ids on every node, 3-level lists ({@code list/element}), maps as {@code key_value{key, value}}, and the
 * hidden {@code _ducklake_internal_row_id} / {@code _ducklake_internal_snapshot_id} columns (reference §3.4).
 */
final class ParquetSchemas
{
    static final String ROW_ID = DataFileSchema.ROW_ID_NAME;
    static final String SNAPSHOT_ID = DataFileSchema.SNAPSHOT_ID_NAME;
    static final int SNAPSHOT_ID_FIELD_ID = DataFileTask.SNAPSHOT_ID_FIELD_ID;
    private static final byte VARIANT_SPEC_VERSION = 1;

    private ParquetSchemas() {}

    /** The data file schema: the user columns (matched to DuckLake columns by name) and the two hidden columns. */
    static MessageType dataFile(List<Field> userFields, List<ColumnNode> columns)
    {
        List<Type> types = new ArrayList<>();
        for (Field field : userFields) {
            Optional<ColumnNode> column = columns.stream().filter(node -> node.name().equals(field.getName())).findFirst();
            types.add(type(field, column));
        }
        types.add(DataFileSchema.rowIdColumn());
        types.add(DataFileSchema.snapshotIdColumn());
        return new MessageType(DataFileSchema.ROOT_NAME, types);
    }


    private static Type type(Field field, Optional<ColumnNode> column)
    {
        String name = field.getName();
        Integer id = column.map(node -> (int) node.columnId()).orElse(null);
        ArrowType type = field.getType();
        Type built = ParquetVariant.isVariant(field) ? variant(name) : switch (type.getTypeID()) {
            case Struct -> {
                List<Type> children = new ArrayList<>();
                for (Field child : field.getChildren()) {
                    children.add(type(child, childNamed(column, child.getName())));
                }
                yield new GroupType(Type.Repetition.OPTIONAL, name, children);
            }
            case List, LargeList -> {
                Field element = field.getChildren().getFirst();
                Type elementType = type(renamed(element, "element"), childNamed(column, "element"));
                yield Types.optionalGroup().as(LogicalTypeAnnotation.listType())
                        .addField(Types.repeatedGroup().addField(elementType).named("list"))
                        .named(name);
            }
            case Map -> {
                Field entries = field.getChildren().getFirst();
                Field key = entries.getChildren().get(0);
                Field value = entries.getChildren().get(1);
                Type keyType = required(type(renamed(key, "key"), childNamed(column, "key")));
                Type valueType = type(renamed(value, "value"), childNamed(column, "value"));
                yield Types.optionalGroup().as(LogicalTypeAnnotation.mapType())
                        .addField(Types.repeatedGroup().addField(keyType).addField(valueType).named("key_value"))
                        .named(name);
            }
            default -> primitive(field, name);
        };
        return id == null ? built : built.withId(id);
    }

    /** An unshredded VARIANT group, as DuckDB writes one without its {@code typed_value}; the field id goes on the group. */
    private static Type variant(String name)
    {
        return Types.optionalGroup().as(LogicalTypeAnnotation.variantType(VARIANT_SPEC_VERSION))
                .required(PrimitiveTypeName.BINARY).named(ParquetVariant.METADATA)
                .required(PrimitiveTypeName.BINARY).named(ParquetVariant.VALUE)
                .named(name);
    }

    private static Type primitive(Field field, String name)
    {
        ArrowType type = field.getType();
        return switch (type) {
            case ArrowType.Bool ignored -> Types.optional(PrimitiveTypeName.BOOLEAN).named(name);
            case ArrowType.Int integer when integer.getBitWidth() == 64 ->
                    Types.optional(PrimitiveTypeName.INT64).as(integer.getIsSigned() ? null : LogicalTypeAnnotation.intType(64, false)).named(name);
            case ArrowType.Int integer ->
                    Types.optional(PrimitiveTypeName.INT32).as(integer.getBitWidth() == 32 && integer.getIsSigned() ? null
                            : LogicalTypeAnnotation.intType(integer.getBitWidth(), integer.getIsSigned())).named(name);
            case ArrowType.FloatingPoint floating -> Types.optional(floating.getPrecision() == FloatingPointPrecision.SINGLE
                    ? PrimitiveTypeName.FLOAT : PrimitiveTypeName.DOUBLE).named(name);
            case ArrowType.Utf8 ignored -> Types.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(name);
            case ArrowType.LargeUtf8 ignored -> Types.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(name);
            case ArrowType.Binary ignored -> Types.optional(PrimitiveTypeName.BINARY).named(name);
            case ArrowType.LargeBinary ignored -> Types.optional(PrimitiveTypeName.BINARY).named(name);
            case ArrowType.Decimal decimal -> decimal(decimal, name);
            case ArrowType.Date date when date.getUnit() == DateUnit.DAY -> Types.optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.dateType()).named(name);
            case ArrowType.Timestamp timestamp -> Types.optional(PrimitiveTypeName.INT64)
                    .as(LogicalTypeAnnotation.timestampType(timestamp.getTimezone() != null, timeUnit(timestamp.getUnit(), name))).named(name);
            case ArrowType.Time time when time.getUnit() == TimeUnit.MICROSECOND ->
                    Types.optional(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.timeType(false, LogicalTypeAnnotation.TimeUnit.MICROS)).named(name);
            // HUGEINT and UHUGEINT as DECIMAL(38, 0) in 16 bytes, as moraine's flush always wrote them: exact for every
            // HUGEINT and every UHUGEINT below 2^127 (DuckDB reads them back and casts to the column's type); DuckDB's own
            // writer turns them into DOUBLE, which rounds above 2^53.
            case ArrowType.FixedSizeBinary ignored when ArrowHugeint.isHugeint(field) -> decimal(new ArrowType.Decimal(38, 0, 128), name);
            case ArrowType.FixedSizeBinary binary when binary.getByteWidth() == 16 && isUuid(field) ->
                    Types.optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(16).as(LogicalTypeAnnotation.uuidType()).named(name);
            case ArrowType.FixedSizeBinary binary -> Types.optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(binary.getByteWidth()).named(name);
            case ArrowType.Interval ignored -> Types.optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(12)
                    .as(LogicalTypeAnnotation.IntervalLogicalTypeAnnotation.getInstance()).named(name);
            default -> throw new UnsupportedFeatureException("cannot flush column " + name + " of Arrow type " + type
                    + " to Parquet yet; flush this table with DuckDB (CALL ducklake_flush_inlined_data) instead");
        };
    }

    static boolean isUuid(Field field)
    {
        return "arrow.uuid".equals(field.getMetadata().get("ARROW:extension:name"))
                || field.getType() instanceof ArrowType.ExtensionType extension && "arrow.uuid".equals(extension.extensionName());
    }

    private static Type decimal(ArrowType.Decimal decimal, String name)
    {
        LogicalTypeAnnotation annotation = LogicalTypeAnnotation.decimalType(decimal.getScale(), decimal.getPrecision());
        if (decimal.getPrecision() <= 9) {
            return Types.optional(PrimitiveTypeName.INT32).as(annotation).named(name);
        }
        if (decimal.getPrecision() <= 18) {
            return Types.optional(PrimitiveTypeName.INT64).as(annotation).named(name);
        }
        return Types.optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(16).as(annotation).named(name);
    }

    private static LogicalTypeAnnotation.TimeUnit timeUnit(TimeUnit unit, String name)
    {
        return switch (unit) {
            case MILLISECOND -> LogicalTypeAnnotation.TimeUnit.MILLIS;
            case MICROSECOND -> LogicalTypeAnnotation.TimeUnit.MICROS;
            case NANOSECOND -> LogicalTypeAnnotation.TimeUnit.NANOS;
            case SECOND -> throw new UnsupportedFeatureException("cannot flush second-resolution timestamp column " + name + " yet");
        };
    }

    /** Map keys are required in Parquet. */
    private static Type required(Type type)
    {
        if (!type.isPrimitive()) {
            return type;
        }
        var builder = Types.required(type.asPrimitiveType().getPrimitiveTypeName()).length(type.asPrimitiveType().getTypeLength())
                .as(type.getLogicalTypeAnnotation());
        if (type.getId() != null) {
            builder = builder.id(type.getId().intValue());
        }
        return builder.named(type.getName());
    }

    private static Optional<ColumnNode> childNamed(Optional<ColumnNode> parent, String name)
    {
        return parent.flatMap(node -> node.children().stream().filter(child -> child.name().equals(name)).findFirst());
    }

    private static Field renamed(Field field, String name)
    {
        return new Field(name, field.getFieldType(), field.getChildren());
    }
}
