package io.moraine.duckdb.ext;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

/** UUIDs as DuckDB reads them from Arrow (16 bytes with the arrow.uuid extension), from their text form. */
final class UuidText
{
    private UuidText() {}

    static Field field(String name)
    {
        return new Field(name, new FieldType(true, new ArrowType.FixedSizeBinary(16), null,
                Map.of("ARROW:extension:name", "arrow.uuid", "ARROW:extension:metadata", "")), null);
    }

    static FixedSizeBinaryVector toUuids(VarCharVector text, BufferAllocator allocator)
    {
        FixedSizeBinaryVector uuids = (FixedSizeBinaryVector) field(text.getName()).createVector(allocator);
        uuids.allocateNew(text.getValueCount());
        for (int i = 0; i < text.getValueCount(); i++) {
            if (text.isNull(i)) {
                uuids.setNull(i);
                continue;
            }
            UUID uuid = UUID.fromString(new String(text.get(i), StandardCharsets.UTF_8));
            uuids.set(i, ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits()).array());
        }
        uuids.setValueCount(text.getValueCount());
        return uuids;
    }
}
