package io.moraine.core.write;

import io.moraine.core.inline.ArrowHugeint;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;

/**
 * The Arrow schema of a table's inlined rows as DuckDB registers it for a new inlined-data table: the user columns in
 * DuckDB's Arrow export types, so DuckDB reads rows the core inlined as its own. Engines build their inlined batches
 * in this schema. As DuckDB 1.5.5 registers them: a UUID is its text (Utf8), a TIMETZ its time of day in micros, a
 * list's element field is named {@code l}, HUGEINT / UHUGEINT are 16 opaque bytes ({@link ArrowHugeint}).
 */
public final class InlinedArrowSchema
{
    /** The zone DuckDB names in a TIMESTAMPTZ's Arrow type in a session whose TimeZone is UTC. */
    private static final String UTC = "Etc/UTC";

    private InlinedArrowSchema() {}

    static Schema of(TableDraft table)
    {
        return of(ColumnTree.of(table.columns));
    }

    public static Schema of(List<TableColumn> columns)
    {
        return new Schema(columns.stream().map(InlinedArrowSchema::field).toList());
    }

    public static Field field(TableColumn column)
    {
        return switch (column.type()) {
            case DuckLakeType.StructOf struct -> new Field(column.name(), FieldType.nullable(ArrowType.Struct.INSTANCE),
                    struct.fields().stream().map(InlinedArrowSchema::field).toList());
            case DuckLakeType.ListOf list -> new Field(column.name(), FieldType.nullable(ArrowType.List.INSTANCE), List.of(renamed(field(list.element()), "l")));
            case DuckLakeType.MapOf map -> new Field(column.name(), FieldType.nullable(new ArrowType.Map(false)),
                    List.of(new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE),
                            List.of(new Field("key", FieldType.notNullable(arrowType(map.key().type())), childrenOf(map.key())), field(map.value())))));
            case DuckLakeType.Decimal decimal -> new Field(column.name(), FieldType.nullable(new ArrowType.Decimal(decimal.precision(), decimal.scale(), 128)), null);
            case DuckLakeType.Primitive primitive when primitive.kind() == PrimitiveKind.INT128 || primitive.kind() == PrimitiveKind.UINT128 ->
                    ArrowHugeint.field(column.name(), true,
                            primitive.kind() == PrimitiveKind.INT128 ? ArrowHugeint.Kind.HUGEINT : ArrowHugeint.Kind.UHUGEINT);
            case DuckLakeType.Primitive primitive -> new Field(column.name(), FieldType.nullable(arrowType(primitive)), null);
        };
    }

    /** DuckDB names a list's element field {@code l}, whatever the column calls it. */
    private static Field renamed(Field field, String name)
    {
        return new Field(name, field.getFieldType(), field.getChildren());
    }

    private static List<Field> childrenOf(TableColumn column)
    {
        return field(column).getChildren();
    }

    private static ArrowType arrowType(DuckLakeType type)
    {
        if (type instanceof DuckLakeType.Decimal decimal) {
            return new ArrowType.Decimal(decimal.precision(), decimal.scale(), 128);
        }
        if (!(type instanceof DuckLakeType.Primitive primitive)) {
            return field(new TableColumn(0, "x", type, java.util.Optional.empty())).getType();
        }
        return switch (primitive.kind()) {
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case INT8 -> new ArrowType.Int(8, true);
            case INT16 -> new ArrowType.Int(16, true);
            case INT32 -> new ArrowType.Int(32, true);
            case INT64 -> new ArrowType.Int(64, true);
            case UINT8 -> new ArrowType.Int(8, false);
            case UINT16 -> new ArrowType.Int(16, false);
            case UINT32 -> new ArrowType.Int(32, false);
            case UINT64 -> new ArrowType.Int(64, false);
            case FLOAT32 -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case FLOAT64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DATE -> new ArrowType.Date(DateUnit.DAY);
            case TIME, TIMETZ -> new ArrowType.Time(TimeUnit.MICROSECOND, 64);
            case TIME_NS -> new ArrowType.Time(TimeUnit.NANOSECOND, 64);
            case TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
            case TIMESTAMP_S -> new ArrowType.Timestamp(TimeUnit.SECOND, null);
            case TIMESTAMP_MS -> new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);
            case TIMESTAMP_NS -> new ArrowType.Timestamp(TimeUnit.NANOSECOND, null);
            case TIMESTAMPTZ -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, UTC);
            case INTERVAL -> new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO);
            case BLOB -> ArrowType.Binary.INSTANCE;
            default -> ArrowType.Utf8.INSTANCE;
        };
    }
}
