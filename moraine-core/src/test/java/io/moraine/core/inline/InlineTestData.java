package io.moraine.core.inline;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** Small Arrow batches for inline tests: (id BIGINT, name VARCHAR). */
public final class InlineTestData
{
    public static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.nullable(new ArrowType.Int(64, true)), null),
            new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));

    private InlineTestData() {}

    /** A batch of {@code count} rows with ids from {@code firstId} and names "{@code prefix}-id". */
    public static VectorSchemaRoot rows(BufferAllocator allocator, long firstId, int count, String prefix)
    {
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
        root.allocateNew();
        BigIntVector ids = (BigIntVector) root.getVector("id");
        VarCharVector names = (VarCharVector) root.getVector("name");
        for (int i = 0; i < count; i++) {
            ids.setSafe(i, firstId + i);
            names.setSafe(i, (prefix + "-" + (firstId + i)).getBytes(StandardCharsets.UTF_8));
        }
        root.setRowCount(count);
        return root;
    }
}
