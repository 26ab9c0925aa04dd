package io.moraine.inline.flush;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.inline.ArrowHugeint;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.inline.InlineArrow;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * One cell of an inlined batch as the Java value partition transforms and sort keys work on (see
 * {@link io.moraine.core.catalog.PartitionTransform}): signed integers as {@link Long}, varchar as {@link String},
 * dates, {@code timestamp} as {@link LocalDateTime}, {@code timestamptz} as {@link Instant}, decimals, booleans,
 * UUIDs and floats as {@link Double}. Other types cannot key a partition or a sort in moraine's flush.
 */
final class FlushCellValues
{
    private FlushCellValues() {}

    static Object of(FieldVector vector, int row, String ducklakeType)
    {
        if (vector.isNull(row)) {
            return null;
        }
        return switch (vector) {
            case UInt1Vector _, UInt2Vector _, UInt4Vector _, UInt8Vector _ -> throw unsupported(vector, ducklakeType);
            case BaseIntVector integer -> integer.getValueAsLong(row);
            case VarCharVector text -> new String(text.get(row), StandardCharsets.UTF_8);
            case DateDayVector date -> LocalDate.ofEpochDay(date.get(row));
            case TimeStampVector timestamp when micros(timestamp) -> {
                long micros = timestamp.get(row);
                Instant instant = Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
                yield ((ArrowType.Timestamp) timestamp.getField().getType()).getTimezone() == null ? LocalDateTime.ofInstant(instant, ZoneOffset.UTC) : instant;
            }
            case DecimalVector decimal -> decimal.getObject(row);
            case BitVector bool -> bool.get(row) == 1;
            // HUGEINT and UHUGEINT as the decimal they were read as before their lossless form (ArrowHugeint).
            case FixedSizeBinaryVector binary when ArrowHugeint.isHugeint(binary.getField()) -> new java.math.BigDecimal(ArrowHugeint.value(binary, row));
            case FixedSizeBinaryVector binary when PrimitiveKind.byName(ducklakeType).orElse(null) == PrimitiveKind.UUID -> InlineArrow.uuid(binary.get(row));
            case Float4Vector real -> (double) real.get(row);
            case Float8Vector real -> real.get(row);
            default -> throw unsupported(vector, ducklakeType);
        };
    }

    private static boolean micros(TimeStampVector vector)
    {
        return ((ArrowType.Timestamp) vector.getField().getType()).getUnit() == TimeUnit.MICROSECOND;
    }

    private static UnsupportedFeatureException unsupported(FieldVector vector, String ducklakeType)
    {
        return new UnsupportedFeatureException("column " + vector.getField().getName() + " of type " + ducklakeType
                + " keys the table's partitioning or sort order, which moraine's flush supports only for signed integers, varchar, "
                + "date, timestamp, timestamptz, decimal, boolean, uuid and floats. Flush this table with DuckDB: CALL ducklake_flush_inlined_data(...)");
    }
}
