package io.moraine.inline.flush;

import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.TableKind;
import io.moraine.core.inline.InlineArrow;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code ducklake_file_column_stats} row of one leaf column of a flushed file, counted per Parquet slot of the leaf
 * as DuckDB's Parquet writer counts them (reference §2.14, §7.3): a slot is a value or a NULL, and a NULL or empty
 * ancestor (struct, list, map) gives its leaves one NULL slot. Min and max use DuckLake's text encoding, NaN presence is
 * kept for floats; types without a min/max encoding get counts only.
 */
final class LeafColumnStats
{
    private final long columnId;
    private final String type;
    private long slots;
    private long nulls;
    private boolean nan;
    private Comparable<Object> min;
    private Comparable<Object> max;
    private boolean encodable = true;

    LeafColumnStats(long columnId, String type)
    {
        this.columnId = columnId;
        this.type = type.toLowerCase(Locale.ROOT);
    }

    long columnId()
    {
        return columnId;
    }

    /** One slot holding entry {@code row} of {@code vector}, a value or a NULL. */
    @SuppressWarnings("unchecked")
    void add(ValueVector vector, int row)
    {
        slots++;
        if (type.equals("variant")) {
            // DuckLake 1.5 counts a NULL variant as a value: its stats row has every row in value_count and no NULLs.
            return;
        }
        if (vector.isNull(row)) {
            nulls++;
            return;
        }
        if (!encodable) {
            return;
        }
        Optional<Comparable<?>> value = value(vector, row);
        if (value.isEmpty()) {
            encodable = false;
            return;
        }
        if (value.get() instanceof Double number && number.isNaN()) {
            nan = true;
            return;
        }
        Comparable<Object> comparable = (Comparable<Object>) value.get();
        if (min == null || comparable.compareTo(min) < 0) {
            min = comparable;
        }
        if (max == null || comparable.compareTo(max) > 0) {
            max = comparable;
        }
    }

    /** The value as something that orders as DuckDB orders the type; empty for types without a min/max encoding. */
    private Optional<Comparable<?>> value(ValueVector vector, int row)
    {
        if (type.equals("int128") || type.equals("uint128") || type.equals("interval") || type.equals("blob") || type.equals("json")) {
            return Optional.empty();
        }
        return Optional.ofNullable(switch (vector) {
            case UInt8Vector unsigned -> unsigned.getObjectNoOverflow(row);
            case UInt4Vector unsigned -> BigInteger.valueOf(unsigned.getObjectNoOverflow(row));
            case UInt2Vector unsigned -> BigInteger.valueOf(unsigned.get(row));
            case UInt1Vector unsigned -> BigInteger.valueOf(unsigned.getObjectNoOverflow(row));
            case BaseIntVector integer -> BigInteger.valueOf(integer.getValueAsLong(row));
            case Float4Vector real -> (double) real.get(row);
            case Float8Vector real -> real.get(row);
            case DecimalVector decimal -> decimal.getObject(row);
            case BitVector bool -> bool.get(row) == 1;
            case DateDayVector date -> LocalDate.ofEpochDay(date.get(row));
            case TimeMicroVector time -> LocalTime.ofNanoOfDay(time.get(row) * 1000);
            case TimeStampVector timestamp when type.equals("timestamp") || type.equals("timestamptz") ->
                    LocalDateTime.ofEpochSecond(Math.floorDiv(timestamp.get(row), 1_000_000), (int) Math.floorMod(timestamp.get(row), 1_000_000) * 1000, ZoneOffset.UTC);
            // Canonical UUID text orders as DuckDB orders UUIDs (unsigned, byte by byte); java.util.UUID does not.
            case FixedSizeBinaryVector binary when type.equals("uuid") -> new Utf8(InlineArrow.uuid(binary.get(row)).toString());
            default -> type.equals("varchar") || type.equals("uuid") ? new Utf8(String.valueOf(vector.getObject(row))) : null;
        });
    }

    /**
     * One slot left NULL by an ancestor, counted {@code nullsCounted} times: DuckDB counts a NULL struct inside a list
     * twice for the struct's leaves (once inherited, once added from the struct's own count).
     */
    void addAbsent(int nullsCounted)
    {
        slots++;
        nulls += nullsCounted;
    }

    /** DuckDB's value count is slots minus NULLs; when the double counting makes that negative, DuckLake stores neither count. */
    Row row(long dataFileId, long tableId, Long sizeBytes)
    {
        boolean bounds = encodable && min != null;
        Boolean containsNan = type.equals("float32") || type.equals("float64") ? nan : null;
        boolean counted = nulls <= slots;
        return Row.of(TableKind.FILE_COLUMN_STATS, dataFileId, tableId, columnId, sizeBytes, counted ? slots - nulls : null, counted ? nulls : null,
                bounds ? text(min) : null, bounds ? text(max) : null, containsNan, null);
    }

    private String text(Object value)
    {
        return switch (value) {
            case Boolean bool -> bool ? "1" : "0";
            case BigDecimal decimal -> decimal.toPlainString();
            case Double number -> number.isInfinite() ? (number > 0 ? "inf" : "-inf") : number.toString();
            case LocalDateTime timestamp -> timestamp.toLocalDate() + " " + clock(timestamp.toLocalTime()) + (type.equals("timestamptz") ? "+00" : "");
            case LocalTime time -> clock(time);
            default -> value.toString();
        };
    }

    /** {@code HH:MM:SS} with the fraction DuckDB prints: microseconds without trailing zeros, none when zero. */
    private static String clock(LocalTime time)
    {
        String whole = String.format(Locale.ROOT, "%02d:%02d:%02d", time.getHour(), time.getMinute(), time.getSecond());
        int micros = time.getNano() / 1000;
        if (micros == 0) {
            return whole;
        }
        String fraction = String.format(Locale.ROOT, "%06d", micros).replaceAll("0+$", "");
        return whole + "." + fraction;
    }

    /** A string ordered by its UTF-8 bytes, as DuckDB orders VARCHAR. */
    private record Utf8(String value)
            implements Comparable<Object>
    {
        @Override
        public int compareTo(Object other)
        {
            return Arrays.compareUnsigned(value.getBytes(StandardCharsets.UTF_8), ((Utf8) other).value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String toString()
        {
            return value;
        }
    }
}
