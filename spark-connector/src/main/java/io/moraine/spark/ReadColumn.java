package io.moraine.spark;

import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;

/**
 * One data column a scan reads, as planned on the driver and shipped to executors: the catalog's column pruned to the
 * nested fields the query needs (ids from the catalog), its Spark type, the field Spark's Parquet reader is asked for,
 * how a batch's vector becomes the Spark type, and the value rows of files that lack the column read as (moraine's
 * value class for the type, or null).
 */
record ReadColumn(long columnId, String name, DataType logicalType, StructField physicalField, ConvertedColumnVector.Conversion conversion,
        List<ReadColumn> fields, Serializable initialDefault)
        implements Serializable
{
    static ReadColumn of(TableColumn column)
    {
        List<ReadColumn> fields = column.type() instanceof DuckLakeType.StructOf struct
                ? struct.fields().stream().map(ReadColumn::of).toList()
                : List.of();
        ConvertedColumnVector.Conversion conversion;
        if (SparkTypes.readAsBinary(column)) {
            conversion = column.type().is(PrimitiveKind.UUID) ? ConvertedColumnVector.Conversion.UUID_TEXT : ConvertedColumnVector.Conversion.INTERVAL_TEXT;
        }
        else if (fields.stream().anyMatch(field -> field.conversion() != ConvertedColumnVector.Conversion.NONE)) {
            conversion = ConvertedColumnVector.Conversion.STRUCT;
        }
        else {
            conversion = ConvertedColumnVector.Conversion.NONE;
        }
        return new ReadColumn(column.columnId(), column.name(), SparkTypes.logical(column), SparkTypes.physical(column), conversion, fields,
                (Serializable) column.initialDefaultValue().orElse(null));
    }

    /** The value rows of a file without the column read as, or empty for NULL. */
    Optional<Object> defaultValue()
    {
        return Optional.ofNullable(initialDefault);
    }
}
