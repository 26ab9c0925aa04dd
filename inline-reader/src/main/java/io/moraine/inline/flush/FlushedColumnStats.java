package io.moraine.inline.flush;

import io.moraine.core.catalog.ColumnNode;
import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.TableKind;
import io.moraine.core.inline.InlineArrow;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.BaseIntVector;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code ducklake_file_column_stats} rows of a flushed file (reference §2.14, §7.3), gathered while its rows are
 * written: per top-level scalar column the non-NULL and NULL counts, min and max in DuckLake's text encoding, and NaN
 * presence for floats. Types without a min/max encoding get counts only; nested columns get no row (unknown, never
 * pruned).
 */
final class FlushedColumnStats
{
    private final Map<String, ColumnStats> byName = new HashMap<>();
    private final List<ColumnStats> columns = new ArrayList<>();

    FlushedColumnStats(List<ColumnNode> tableColumns)
    {
        for (ColumnNode column : tableColumns) {
            if (column.children().isEmpty()) {
                ColumnStats stats = new ColumnStats(column.columnId(), column.type().toLowerCase(Locale.ROOT));
                byName.put(column.name(), stats);
                columns.add(stats);
            }
        }
    }

    /** Counts row {@code row} of every tracked column among {@code vectors}. */
    void add(List<FieldVector> vectors, int row)
    {
        for (FieldVector vector : vectors) {
            ColumnStats stats = byName.get(vector.getField().getName());
            if (stats != null) {
                stats.add(vector, row);
            }
        }
    }

    /** One row per tracked column; {@code sizes} maps column names to their bytes in the file. */
    List<Row> rows(long dataFileId, long tableId, Map<String, Long> sizes)
    {
        List<Row> rows = new ArrayList<>();
        byName.forEach((name, stats) -> rows.add(stats.row(dataFileId, tableId, sizes.get(name))));
        rows.sort((a, b) -> Long.compare(a.getLong("column_id"), b.getLong("column_id")));
        return rows;
    }

    private static final class ColumnStats
    {
        private final long columnId;
        private final String type;
        private long values;
        private long nulls;
        private boolean nan;
        private Comparable<Object> min;
        private Comparable<Object> max;
        private boolean encodable = true;

        ColumnStats(long columnId, String type)
        {
            this.columnId = columnId;
            this.type = type;
        }

        @SuppressWarnings("unchecked")
        void add(FieldVector vector, int row)
        {
            if (vector.isNull(row)) {
                nulls++;
                return;
            }
            values++;
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
        private Optional<Comparable<?>> value(FieldVector vector, int row)
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

        Row row(long dataFileId, long tableId, Long sizeBytes)
        {
            boolean bounds = encodable && min != null;
            Boolean containsNan = type.equals("float32") || type.equals("float64") ? nan : null;
            return Row.of(TableKind.FILE_COLUMN_STATS, dataFileId, tableId, columnId, sizeBytes, values, nulls,
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
