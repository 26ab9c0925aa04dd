package io.moraine.spark;

import org.apache.parquet.hadoop.api.InitContext;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;

import io.moraine.core.scan.NameMapping;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Spark's Parquet read support (columns clipped by field id), with the uuid and interval annotations taken off the
 * requested columns: Spark's reader refuses both, and reads the fixed-length binary they are stored as once they are
 * plain; {@link ConvertedColumnVector} turns the bytes into text. Named in the scan's private Hadoop configuration
 * ({@code parquet.read.support.class}); executors instantiate it by its no-argument constructor.
 */
public class MoraineParquetReadSupport
        extends ParquetReadSupport
{
    private static final ThreadLocal<NameMapping> OPENING_THROUGH = new ThreadLocal<>();

    /** Opens a reader with {@code open}, clipping its file in the field ids of {@code mapping} when there is one. */
    static <T> T openingThrough(Optional<NameMapping> mapping, Supplier<T> open)
    {
        if (mapping.isEmpty()) {
            return open.get();
        }
        OPENING_THROUGH.set(mapping.get());
        try {
            return open.get();
        }
        finally {
            OPENING_THROUGH.remove();
        }
    }

    @Override
    public ReadContext init(InitContext context)
    {
        NameMapping mapping = OPENING_THROUGH.get();
        InitContext mapped = mapping == null ? context
                : new InitContext(context.getConfiguration(), context.getKeyValueMetadata(), mapping.applyTo(context.getFileSchema()));
        ReadContext clipped = super.init(mapped);
        MessageType requested = clipped.getRequestedSchema();
        return new ReadContext(new MessageType(requested.getName(), plain(requested.getFields())), clipped.getReadSupportMetadata());
    }

    private static List<Type> plain(List<Type> fields)
    {
        return fields.stream().map(MoraineParquetReadSupport::plain).toList();
    }

    private static Type plain(Type type)
    {
        if (type instanceof GroupType group) {
            return group.withNewFields(plain(group.getFields()));
        }
        PrimitiveType primitive = type.asPrimitiveType();
        LogicalTypeAnnotation annotation = primitive.getLogicalTypeAnnotation();
        if (annotation instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation || annotation instanceof LogicalTypeAnnotation.IntervalLogicalTypeAnnotation) {
            return primitive.withLogicalTypeAnnotation(null);
        }
        return primitive;
    }
}
