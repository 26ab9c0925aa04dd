package io.moraine.spark;

import io.moraine.core.catalog.PartitionTransform;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.functions.BoundFunction;
import org.apache.spark.sql.connector.catalog.functions.ScalarFunction;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code ducklake_partition_key(transform, column_type, value)}: the DuckLake partition key of {@code value} under a
 * transform ({@code year}, {@code month}, {@code day}, {@code hour}, {@code bucket(N)}; the core's
 * {@link PartitionTransform} computes it), a BIGINT. The catalog serves it so that a write's required distribution
 * ({@link SparkWriteOrdering}) clusters rows by exactly the partitions the core will file them under.
 */
final class PartitionKeyFunction
        implements UnboundFunction
{
    static final String NAME = "ducklake_partition_key";

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public BoundFunction bind(StructType inputType)
    {
        StructField[] fields = inputType.fields();
        if (fields.length != 3 || !(fields[0].dataType() instanceof StringType) || !(fields[1].dataType() instanceof StringType)) {
            throw new UnsupportedOperationException(NAME + " takes (transform STRING, column_type STRING, value), not " + inputType.simpleString());
        }
        return new Bound(fields[2]);
    }

    @Override
    public String description()
    {
        return NAME + "(transform, column_type, value): the DuckLake partition key of value under transform (year, month, day, hour or bucket(N)), as moraine files rows";
    }

    private static final class Bound
            implements ScalarFunction<Long>
    {
        private final StructField value;
        private transient String transformText;
        private transient PartitionTransform transform;

        Bound(StructField value)
        {
            this.value = value;
        }

        @Override
        public DataType[] inputTypes()
        {
            return new DataType[] {DataTypes.StringType, DataTypes.StringType, value.dataType()};
        }

        @Override
        public DataType resultType()
        {
            return DataTypes.LongType;
        }

        @Override
        public String name()
        {
            return NAME;
        }

        @Override
        public Long produceResult(InternalRow input)
        {
            if (input.isNullAt(0) || input.isNullAt(1)) {
                return null;
            }
            String text = input.getUTF8String(0).toString();
            if (!text.equals(transformText)) {
                transform = PartitionTransform.parse(text);
                transformText = text;
            }
            Object key = transform.apply(SparkPartitionValues.value(input, 2, value), input.getUTF8String(1).toString());
            return key == null ? null : ((Number) key).longValue();
        }
    }
}
