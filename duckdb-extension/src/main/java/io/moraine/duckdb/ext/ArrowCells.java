package io.moraine.duckdb.ext;

import io.moraine.core.row.ColumnType;
import io.moraine.core.error.InvalidArgumentException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.util.Text;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.UUID;

/** Reads a cell DuckDB exported (its default Arrow form) as the Java value the core keeps for a ducklake_* column type. */
final class ArrowCells
{
    private ArrowCells() {}

    static Object cell(FieldVector vector, int index, ColumnType type)
    {
        if (vector.isNull(index)) {
            return null;
        }
        return switch (type) {
            case BIGINT -> ((Number) vector.getObject(index)).longValue();
            case VARCHAR -> text(vector.getObject(index));
            case BOOLEAN -> (Boolean) vector.getObject(index);
            case UUID -> vector instanceof FixedSizeBinaryVector binary ? uuid(binary.get(index)) : UUID.fromString(text(vector.getObject(index)));
            case TIMESTAMPTZ -> micros(((TimeStampVector) vector).get(index));
        };
    }

    private static String text(Object value)
    {
        if (value instanceof Text text) {
            return text.toString();
        }
        if (value instanceof String string) {
            return string;
        }
        throw new InvalidArgumentException("expected text from DuckDB, got " + value.getClass().getSimpleName());
    }

    private static UUID uuid(byte[] bytes)
    {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new UUID(buffer.getLong(), buffer.getLong());
    }

    private static Instant micros(long micros)
    {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }
}
