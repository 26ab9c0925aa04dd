package io.moraine.core.write.files;

import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.PrimitiveKind;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;

/**
 * Turns a Parquet column chunk's min and max (as parquet-java reads them) into the strings DuckLake stores in
 * {@code ducklake_file_column_stats}, as DuckDB 1.5.5's Parquet writer reports them (reference writes §3.4).
 */
final class StatisticsText
{
    /** DuckDB's {@code StringStatisticsState::MAX_STRING_STATISTICS_SIZE}. */
    static final int MAX_STRING_STATISTICS_SIZE = 256;
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    record Bounds(String min, String max) {}

    private StatisticsText() {}

    /** The bounds of {@code statistics} (which has a min and a max) for a column of {@code type}; null when DuckLake records none. */
    static Bounds bounds(DuckLakeType type, Statistics<?> statistics)
    {
        PrimitiveType physical = statistics.type();
        if (type instanceof DuckLakeType.Decimal decimal) {
            return new Bounds(decimal(statistics.genericGetMin(), decimal.scale()), decimal(statistics.genericGetMax(), decimal.scale()));
        }
        if (!(type instanceof DuckLakeType.Primitive primitive)) {
            return null;
        }
        Object min = statistics.genericGetMin();
        Object max = statistics.genericGetMax();
        return switch (primitive.kind()) {
            case INT128, UINT128, INTERVAL, TIMETZ, VARIANT, GEOMETRY -> null;
            case VARCHAR, JSON -> strings(((Binary) min).getBytes(), ((Binary) max).getBytes(), 0x7F, false);
            case BLOB -> strings(((Binary) min).getBytes(), ((Binary) max).getBytes(), 0xFF, true);
            default -> new Bounds(scalar(primitive.kind(), physical, min), scalar(primitive.kind(), physical, max));
        };
    }

    private static String scalar(PrimitiveKind kind, PrimitiveType physical, Object value)
    {
        LogicalTypeAnnotation logical = physical.getLogicalTypeAnnotation();
        return switch (kind) {
            case BOOLEAN -> (Boolean) value ? "1" : "0";
            case INT8, INT16, INT32, INT64, UINT8, UINT16 -> Long.toString(((Number) value).longValue());
            case UINT32 -> Long.toString(Integer.toUnsignedLong((Integer) value));
            case UINT64 -> Long.toUnsignedString((Long) value);
            // parquet-java turns a zero min into -0.0 and a zero max into 0.0; DuckDB prints its zero bounds as 0.0.
            case FLOAT32 -> (Float) value == 0 ? "0.0" : DuckLakeValues.floatText((Float) value);
            case FLOAT64 -> (Double) value == 0 ? "0.0" : DuckLakeValues.doubleText((Double) value);
            case DATE -> LocalDate.ofEpochDay((Integer) value).toString();
            case TIME, TIME_NS -> clock(LocalTime.ofNanoOfDay(nanos((Long) value, logical)), kind == PrimitiveKind.TIME_NS);
            case TIMESTAMP, TIMESTAMP_S, TIMESTAMP_MS, TIMESTAMP_NS -> timestamp(instant((Long) value, logical), kind == PrimitiveKind.TIMESTAMP_NS);
            case TIMESTAMPTZ -> timestamp(instant((Long) value, logical), false) + "+00";
            case UUID -> uuid(((Binary) value).getBytes());
            default -> null;
        };
    }

    private static String decimal(Object unscaled, int scale)
    {
        BigInteger digits = switch (unscaled) {
            case Integer number -> BigInteger.valueOf(number);
            case Long number -> BigInteger.valueOf(number);
            case Binary binary -> new BigInteger(binary.getBytes());
            default -> throw new IllegalStateException("a decimal statistic of Java type " + unscaled.getClass().getSimpleName());
        };
        return new BigDecimal(digits, scale).toPlainString();
    }

    private static long unitsPerSecond(LogicalTypeAnnotation logical)
    {
        LogicalTypeAnnotation.TimeUnit unit = switch (logical) {
            case LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp -> timestamp.getUnit();
            case LogicalTypeAnnotation.TimeLogicalTypeAnnotation time -> time.getUnit();
            case null, default -> LogicalTypeAnnotation.TimeUnit.MICROS;
        };
        return switch (unit) {
            case MILLIS -> 1_000L;
            case MICROS -> 1_000_000L;
            case NANOS -> 1_000_000_000L;
        };
    }

    private static long nanos(long value, LogicalTypeAnnotation logical)
    {
        return value * (1_000_000_000L / unitsPerSecond(logical));
    }

    private static Instant instant(long value, LogicalTypeAnnotation logical)
    {
        long perSecond = unitsPerSecond(logical);
        return Instant.ofEpochSecond(Math.floorDiv(value, perSecond), Math.floorMod(value, perSecond) * (1_000_000_000L / perSecond));
    }

    private static String timestamp(Instant instant, boolean nanoseconds)
    {
        LocalDateTime local = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        return local.toLocalDate() + " " + clock(local.toLocalTime(), nanoseconds);
    }

    /** {@code HH:MM:SS}, then the fraction (micro- or nanoseconds) without trailing zeros when there is one. */
    private static String clock(LocalTime time, boolean nanoseconds)
    {
        String whole = String.format(Locale.ROOT, "%02d:%02d:%02d", time.getHour(), time.getMinute(), time.getSecond());
        long fraction = nanoseconds ? time.getNano() : time.getNano() / 1000;
        if (fraction == 0) {
            return whole;
        }
        String digits = String.format(Locale.ROOT, nanoseconds ? "%09d" : "%06d", fraction);
        return whole + "." + digits.replaceAll("0+$", "");
    }

    private static String uuid(byte[] bytes)
    {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new UUID(buffer.getLong(), buffer.getLong()).toString();
    }

    /**
     * VARCHAR, JSON and BLOB bounds cut as DuckDB's {@code StringStatisticsState} cuts them: a min longer than 256 bytes
     * to 256 bytes (VARCHAR: back to a UTF-8 character start), a longer max to the last of its first 256 bytes below
     * {@code maxByte} (0x7F for VARCHAR, 0xFF for BLOB), which is incremented; when no such byte exists the column has
     * no bounds.
     */
    private static Bounds strings(byte[] min, byte[] max, int maxByte, boolean blob)
    {
        byte[] cutMin = min.length > MAX_STRING_STATISTICS_SIZE ? truncateMin(min, blob) : min;
        byte[] cutMax = max;
        if (max.length > MAX_STRING_STATISTICS_SIZE) {
            cutMax = truncateMax(max, maxByte);
            if (cutMax == null) {
                return null;
            }
        }
        if (blob) {
            return new Bounds(HEX.formatHex(cutMin), HEX.formatHex(cutMax));
        }
        // A NUL character stays: DuckLake 1.5.5 on a DuckDB catalog stores it as it is (observed), not as NULL.
        return new Bounds(new String(cutMin, StandardCharsets.UTF_8), new String(cutMax, StandardCharsets.UTF_8));
    }

    private static byte[] truncateMin(byte[] value, boolean blob)
    {
        int size = MAX_STRING_STATISTICS_SIZE;
        if (!blob) {
            // Back to the start of the character at byte 256 (a continuation byte is 10xxxxxx).
            while (size > 0 && (value[size] & 0xC0) == 0x80) {
                size--;
            }
        }
        return Arrays.copyOf(value, size);
    }

    private static byte[] truncateMax(byte[] value, int maxByte)
    {
        int position = MAX_STRING_STATISTICS_SIZE;
        while (position > 0 && (value[position - 1] & 0xFF) >= maxByte) {
            position--;
        }
        if (position == 0) {
            return null;
        }
        byte[] result = Arrays.copyOf(value, position);
        result[position - 1]++;
        return result;
    }
}
