package io.moraine.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.execution.datasources.parquet.ParquetWriteSupport;

import java.util.ArrayList;
import java.util.List;

/**
 * Spark's own Parquet writer with the field ids Spark cannot express: a Spark schema carries field ids on struct
 * fields only, so Spark writes list elements and map keys and values without one, and DuckLake then cannot name those
 * columns. The file schema stays the one Spark derives (its physical types are what its value writers write); each
 * node without an id takes the id of the same node in the {@link io.moraine.core.write.files.DataFileTarget}'s schema.
 */
final class FieldIdWriteSupport
        extends ParquetWriteSupport
{
    private final MessageType target;

    FieldIdWriteSupport(MessageType target)
    {
        this.target = target;
    }

    @Override
    public WriteContext init(Configuration configuration)
    {
        WriteContext context = super.init(configuration);
        MessageType spark = context.getSchema();
        return new WriteContext(new MessageType(spark.getName(), withIds(spark, target)), context.getExtraMetaData());
    }

    /** {@code spark}'s fields, each with the id of its namesake in {@code target} where it has none. */
    static List<Type> withIds(GroupType spark, GroupType target)
    {
        List<Type> fields = new ArrayList<>();
        for (Type field : spark.getFields()) {
            Type counterpart = target.containsField(field.getName()) ? target.getType(field.getName()) : null;
            fields.add(counterpart == null ? field : withId(field, counterpart));
        }
        return fields;
    }

    private static Type withId(Type spark, Type target)
    {
        Type typed = spark;
        if (!spark.isPrimitive() && !target.isPrimitive()) {
            typed = spark.asGroupType().withNewFields(withIds(spark.asGroupType(), target.asGroupType()));
        }
        if (typed.getId() == null && target.getId() != null) {
            typed = typed.withId(target.getId().intValue());
        }
        return typed;
    }
}
