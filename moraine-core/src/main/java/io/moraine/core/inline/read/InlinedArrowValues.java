package io.moraine.core.inline.read;

import io.moraine.core.inline.ArrowHugeint;
import io.moraine.core.inline.InlineArrow;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.IntervalDayVector;
import org.apache.arrow.vector.IntervalMonthDayNanoVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.complex.BaseListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.holders.NullableIntervalDayHolder;
import org.apache.arrow.vector.holders.NullableIntervalMonthDayNanoHolder;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * What one Arrow vector of inlined rows (DuckDB's Arrow types, as the import or the extension stored them) holds at a
 * row, as DuckLake values, written once for every engine: timestamps of any unit as epoch micros (plus the nanos below a
 * micro), a UUID's 16 big-endian bytes, an interval's months, days and micros, HUGEINT / UHUGEINT in DuckDB's 16-byte
 * {@code arrow.opaque} form ({@link ArrowHugeint}) or a UBIGINT as a BigInteger, and struct fields found by column id.
 *
 * <p>Engines resolve a vector's {@link Kind} once per column with {@link #kind}, then read each row with the static
 * helper of that kind, which box nothing beyond what the value's class needs, and map it to their own values or blocks.
 * Infinite dates and timestamps are their raw integers; {@link #isInfinite} names them.
 */
public final class InlinedArrowValues
{
    /** What a vector holds, as the helper to read it with. */
    public enum Kind
    {
        /** {@link #bool}. */
        BOOLEAN,
        /** Signed integers up to 64 bits and unsigned up to 32: {@link #integer}. */
        INTEGER,
        /** UBIGINT, HUGEINT, UHUGEINT: {@link #bigInteger}. */
        BIG_INTEGER,
        /** FLOAT and DOUBLE: {@link #floating}. */
        FLOATING,
        /** {@link #decimal}. */
        DECIMAL,
        /** Days since the epoch: {@link #epochDay}. */
        DATE,
        /** Any unit: {@link #timeNanos}. */
        TIME,
        /** Without time zone, any unit: {@link #epochMicros}, {@link #nanosOfMicro}, {@link #instant} (read in UTC). */
        TIMESTAMP,
        /** With a time zone (an instant), any unit: as {@link #TIMESTAMP}. */
        TIMESTAMP_TZ,
        /** {@link #interval}. */
        INTERVAL,
        /** A UUID in 16 bytes: {@link #uuid}. */
        UUID,
        /** UTF-8 text: {@link #utf8}, {@link #text}. */
        TEXT,
        /** Bytes (a blob, or fixed-size bytes that are no UUID nor 128-bit integer): {@link #binary}. */
        BINARY,
        LIST,
        MAP,
        STRUCT,
        /** An Arrow type no helper reads: engines refuse it in their own words. */
        UNSUPPORTED,
    }

    /** A DuckDB interval: months, days and microseconds. */
    public record Interval(int months, int days, long micros)
    {
        /** As DuckDB prints it ({@link DuckLakeValues#intervalText}). */
        public String text()
        {
            return DuckLakeValues.intervalText(months, days, micros);
        }
    }

    private InlinedArrowValues() {}

    /**
     * What {@code vector} holds for a column of {@code type} (null when unknown: a 16-byte fixed-size binary is then a
     * UUID only if the type says so).
     */
    public static Kind kind(ValueVector vector, DuckLakeType type)
    {
        return switch (vector) {
            case BitVector ignored -> Kind.BOOLEAN;
            case UInt8Vector ignored -> Kind.BIG_INTEGER;
            case BaseIntVector ignored -> Kind.INTEGER;
            case FloatingPointVector ignored -> Kind.FLOATING;
            case DecimalVector ignored -> Kind.DECIMAL;
            case Decimal256Vector ignored -> Kind.DECIMAL;
            case DateDayVector ignored -> Kind.DATE;
            case TimeSecVector ignored -> Kind.TIME;
            case TimeMilliVector ignored -> Kind.TIME;
            case TimeMicroVector ignored -> Kind.TIME;
            case TimeNanoVector ignored -> Kind.TIME;
            case TimeStampVector timestamps -> ((ArrowType.Timestamp) timestamps.getField().getType()).getTimezone() == null ? Kind.TIMESTAMP : Kind.TIMESTAMP_TZ;
            case IntervalMonthDayNanoVector ignored -> Kind.INTERVAL;
            case IntervalDayVector ignored -> Kind.INTERVAL;
            case IntervalYearVector ignored -> Kind.INTERVAL;
            case FixedSizeBinaryVector binary when ArrowHugeint.isHugeint(binary.getField()) -> Kind.BIG_INTEGER;
            case FixedSizeBinaryVector binary when isUuid(type) && binary.getByteWidth() == 16 -> Kind.UUID;
            case FixedSizeBinaryVector ignored -> Kind.BINARY;
            case MapVector ignored -> Kind.MAP;
            case BaseListVector ignored -> Kind.LIST;
            case StructVector ignored -> Kind.STRUCT;
            case VariableWidthFieldVector variable when isText(variable.getField().getType()) -> Kind.TEXT;
            case VariableWidthFieldVector ignored -> Kind.BINARY;
            default -> Kind.UNSUPPORTED;
        };
    }

    private static boolean isUuid(DuckLakeType type)
    {
        return type instanceof DuckLakeType.Primitive primitive && primitive.kind() == PrimitiveKind.UUID;
    }

    private static boolean isText(ArrowType type)
    {
        return type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8 || type instanceof ArrowType.Utf8View;
    }

    public static boolean bool(ValueVector vector, int row)
    {
        return ((BitVector) vector).get(row) == 1;
    }

    public static long integer(ValueVector vector, int row)
    {
        return ((BaseIntVector) vector).getValueAsLong(row);
    }

    /** A UBIGINT, or a HUGEINT / UHUGEINT in its 16-byte form. */
    public static BigInteger bigInteger(ValueVector vector, int row)
    {
        return vector instanceof UInt8Vector unsigned ? unsigned.getObjectNoOverflow(row) : ArrowHugeint.value((FixedSizeBinaryVector) vector, row);
    }

    /** A FLOAT (exactly, widened) or DOUBLE. */
    public static double floating(ValueVector vector, int row)
    {
        return ((FloatingPointVector) vector).getValueAsDouble(row);
    }

    public static BigDecimal decimal(ValueVector vector, int row)
    {
        return vector instanceof DecimalVector decimal ? decimal.getObject(row) : ((Decimal256Vector) vector).getObject(row);
    }

    public static int epochDay(ValueVector vector, int row)
    {
        return ((DateDayVector) vector).get(row);
    }

    /** Nanoseconds of the day, of any unit. */
    public static long timeNanos(ValueVector vector, int row)
    {
        return switch (vector) {
            case TimeSecVector time -> time.get(row) * 1_000_000_000L;
            case TimeMilliVector time -> time.get(row) * 1_000_000L;
            case TimeMicroVector time -> time.get(row) * 1_000L;
            case TimeNanoVector time -> time.get(row);
            default -> throw new IllegalArgumentException("not a time vector: " + vector.getField());
        };
    }

    /** The unit of a timestamp vector: resolve it once per column for {@link #epochMicros} and {@link #nanosOfMicro}. */
    public static TimeUnit unit(ValueVector vector)
    {
        return ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
    }

    /** Whether the raw value at {@code row} of a date or timestamp vector is DuckDB's {@code infinity} (1), {@code -infinity} (-1), or neither (0). */
    public static int isInfinite(ValueVector vector, int row)
    {
        long value;
        long largest;
        if (vector instanceof DateDayVector date) {
            value = date.get(row);
            largest = Integer.MAX_VALUE;
        }
        else {
            value = ((TimeStampVector) vector).get(row);
            largest = Long.MAX_VALUE;
        }
        return value == largest ? 1 : value == -largest ? -1 : 0;
    }

    /** Microseconds since the epoch (floored from nanoseconds) of a timestamp of {@code unit}. */
    public static long epochMicros(ValueVector vector, TimeUnit unit, int row)
    {
        long value = ((TimeStampVector) vector).get(row);
        return switch (unit) {
            case SECOND -> Math.multiplyExact(value, 1_000_000L);
            case MILLISECOND -> Math.multiplyExact(value, 1_000L);
            case MICROSECOND -> value;
            case NANOSECOND -> Math.floorDiv(value, 1_000L);
        };
    }

    /** The nanoseconds below {@link #epochMicros} (zero unless the unit is nanoseconds). */
    public static int nanosOfMicro(ValueVector vector, TimeUnit unit, int row)
    {
        return unit == TimeUnit.NANOSECOND ? (int) Math.floorMod(((TimeStampVector) vector).get(row), 1_000L) : 0;
    }

    /** A timestamp of any unit as an instant, to the nanosecond (a timestamp without time zone read in UTC). */
    public static Instant instant(ValueVector vector, TimeUnit unit, int row)
    {
        long value = ((TimeStampVector) vector).get(row);
        long nanosPerUnit = switch (unit) {
            case SECOND -> 1_000_000_000L;
            case MILLISECOND -> 1_000_000L;
            case MICROSECOND -> 1_000L;
            case NANOSECOND -> 1L;
        };
        long perSecond = 1_000_000_000L / nanosPerUnit;
        return Instant.ofEpochSecond(Math.floorDiv(value, perSecond), Math.floorMod(value, perSecond) * nanosPerUnit);
    }

    /** An interval of any Arrow interval unit; DuckDB's nanoseconds (always whole micros) floored to micros. */
    public static Interval interval(ValueVector vector, int row)
    {
        return switch (vector) {
            case IntervalMonthDayNanoVector interval -> {
                NullableIntervalMonthDayNanoHolder holder = new NullableIntervalMonthDayNanoHolder();
                interval.get(row, holder);
                yield new Interval(holder.months, holder.days, Math.floorDiv(holder.nanoseconds, 1000L));
            }
            case IntervalDayVector interval -> {
                NullableIntervalDayHolder holder = new NullableIntervalDayHolder();
                interval.get(row, holder);
                yield new Interval(0, holder.days, holder.milliseconds * 1000L);
            }
            case IntervalYearVector interval -> new Interval(interval.get(row), 0, 0);
            default -> throw new IllegalArgumentException("not an interval vector: " + vector.getField());
        };
    }

    /** A UUID held as 16 big-endian bytes, or as its text. */
    public static UUID uuid(ValueVector vector, int row)
    {
        return vector instanceof FixedSizeBinaryVector binary ? InlineArrow.uuid(binary.get(row)) : UUID.fromString(text(vector, row));
    }

    /** The UTF-8 bytes of a text value. */
    public static byte[] utf8(ValueVector vector, int row)
    {
        return ((VariableWidthFieldVector) vector).get(row);
    }

    public static String text(ValueVector vector, int row)
    {
        return new String(utf8(vector, row), StandardCharsets.UTF_8);
    }

    /** The bytes of a variable- or fixed-width binary value. */
    public static byte[] binary(ValueVector vector, int row)
    {
        return vector instanceof FixedSizeBinaryVector fixed ? fixed.get(row) : ((VariableWidthFieldVector) vector).get(row);
    }

    /**
     * The vector of struct field {@code readField} (a field of the read schema) in {@code vector}, which holds the struct
     * as {@code written} (its schema version): found by column id, so renamed fields read; null when that version lacks it.
     */
    public static ValueVector structField(StructVector vector, TableColumn written, TableColumn readField)
    {
        TableColumn writtenField = writtenField(written, readField);
        return writtenField == null ? null : vector.getChild(writtenField.name());
    }

    /** The field of {@code written} with {@code readField}'s column id, or null. */
    public static TableColumn writtenField(TableColumn written, TableColumn readField)
    {
        for (TableColumn field : written.children()) {
            if (field.columnId() == readField.columnId()) {
                return field;
            }
        }
        return null;
    }
}
