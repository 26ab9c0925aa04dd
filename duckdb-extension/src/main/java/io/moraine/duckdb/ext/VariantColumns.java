package io.moraine.duckdb.ext;

import io.moraine.core.inline.ParquetVariant;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;
import java.util.Set;

/**
 * DuckDB 1.5 exports no VARIANT through Arrow, so the shim sends a VARIANT column as its STRUCT(metadata BLOB, value
 * BLOB) encoding and names it; this marks those columns as the {@code arrow.parquet.variant} fields the core stores
 * a VARIANT as (and serves back, which the shim turns into VARIANT again).
 */
final class VariantColumns
{
    private VariantColumns() {}

    static Schema marked(Schema columns, Set<String> variantColumns)
    {
        if (variantColumns.isEmpty()) {
            return columns;
        }
        List<Field> fields = columns.getFields().stream()
                .map(field -> variantColumns.contains(field.getName()) ? ParquetVariant.field(field.getName(), true) : field)
                .toList();
        return new Schema(fields, columns.getCustomMetadata());
    }
}
