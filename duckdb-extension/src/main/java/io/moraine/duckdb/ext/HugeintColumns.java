package io.moraine.duckdb.ext;

import io.moraine.core.inline.ArrowHugeint;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's default Arrow export types HUGEINT and UHUGEINT as DECIMAL(38,0), which loses UHUGEINT above 10^38 and the
 * types themselves, so the shim sends them (at any depth) as the 16 little-endian bytes DuckDB holds them in, each
 * field naming its type under {@link #TYPE_KEY} (hugeint_transport.hpp) rather than as an Arrow extension, which Arrow
 * Java would log as unknown at every import. This turns those fields into the form the core stores and serves back to
 * DuckDB, DuckDB's own lossless {@code arrow.opaque} hugeint / uhugeint ({@link ArrowHugeint}).
 */
final class HugeintColumns
{
    /** The metadata key the shim names a 16-byte field's type under: {@code HUGEINT} or {@code UHUGEINT}. */
    static final String TYPE_KEY = "moraine.duckdb.type";

    private HugeintColumns() {}

    static Schema marked(Schema columns)
    {
        List<Field> fields = columns.getFields().stream().map(HugeintColumns::marked).toList();
        return fields.equals(columns.getFields()) ? columns : new Schema(fields, columns.getCustomMetadata());
    }

    static Field marked(Field field)
    {
        String type = field.getMetadata().get(TYPE_KEY);
        if (type != null && field.getType() instanceof ArrowType.FixedSizeBinary binary && binary.getByteWidth() == ArrowHugeint.BYTE_WIDTH) {
            ArrowHugeint.Kind kind = switch (type) {
                case "HUGEINT" -> ArrowHugeint.Kind.HUGEINT;
                case "UHUGEINT" -> ArrowHugeint.Kind.UHUGEINT;
                default -> throw new IllegalArgumentException("column " + field.getName() + " names an unknown 16-byte type " + type);
            };
            return ArrowHugeint.field(field.getName(), field.isNullable(), kind);
        }
        if (field.getChildren().isEmpty()) {
            return field;
        }
        List<Field> children = new ArrayList<>();
        for (Field child : field.getChildren()) {
            children.add(marked(child));
        }
        return children.equals(field.getChildren()) ? field : new Field(field.getName(), field.getFieldType(), children);
    }
}
