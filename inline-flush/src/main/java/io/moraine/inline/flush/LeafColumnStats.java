package io.moraine.inline.flush;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.inline.InlineArrow;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.PrimitiveKind;
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

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
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
    private final DuckLakeType type;
    private final PrimitiveKind kind;
    private long slots;
    private long nulls;
    private boolean nan;
    private Object min;
    private Object max;
    private boolean encodable = true;

    LeafColumnStats(long columnId, DuckLakeType type)
    {
        this.columnId = columnId;
        this.type = type;
        this.kind = type instanceof DuckLakeType.Primitive primitive ? primitive.kind() : null;
    }

    long columnId()
    {
        return columnId;
    }

    /** One slot holding entry {@code row} of {@code vector}, a value or a NULL. */
    void add(ValueVector vector, int row)
    {
        slots++;
        if (kind == PrimitiveKind.VARIANT) {
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
        Optional<Object> value = value(vector, row);
        if (value.isEmpty()) {
            encodable = false;
            return;
        }
        if (value.get() instanceof Double number && number.isNaN()) {
            nan = true;
            return;
        }
        if (min == null || DuckLakeValues.compare(value.get(), min) < 0) {
            min = value.get();
        }
        if (max == null || DuckLakeValues.compare(value.get(), max) > 0) {
            max = value.get();
        }
    }

    /** The value in moraine's class for the type ({@link DuckLakeValues}); empty for types without a min/max encoding. */
    private Optional<Object> value(ValueVector vector, int row)
    {
        if (kind == PrimitiveKind.INT128 || kind == PrimitiveKind.UINT128 || kind == PrimitiveKind.INTERVAL || kind == PrimitiveKind.BLOB
                || kind == PrimitiveKind.JSON) {
            return Optional.empty();
        }
        return Optional.ofNullable(switch (vector) {
            case UInt8Vector unsigned -> unsigned.getObjectNoOverflow(row);
            case UInt4Vector unsigned -> unsigned.getObjectNoOverflow(row);
            case UInt2Vector unsigned -> (long) unsigned.get(row);
            case UInt1Vector unsigned -> (long) unsigned.getObjectNoOverflow(row);
            case BaseIntVector integer -> integer.getValueAsLong(row);
            case Float4Vector real -> (double) real.get(row);
            case Float8Vector real -> real.get(row);
            case DecimalVector decimal -> decimal.getObject(row);
            case BitVector bool -> bool.get(row) == 1;
            case DateDayVector date -> LocalDate.ofEpochDay(date.get(row));
            case TimeMicroVector time -> LocalTime.ofNanoOfDay(time.get(row) * 1000);
            case TimeStampVector timestamp when kind == PrimitiveKind.TIMESTAMP -> LocalDateTime.ofEpochSecond(Math.floorDiv(timestamp.get(row), 1_000_000),
                    (int) Math.floorMod(timestamp.get(row), 1_000_000) * 1000, ZoneOffset.UTC);
            case TimeStampVector timestamp when kind == PrimitiveKind.TIMESTAMPTZ -> Instant.ofEpochSecond(Math.floorDiv(timestamp.get(row), 1_000_000),
                    Math.floorMod(timestamp.get(row), 1_000_000) * 1000L);
            case FixedSizeBinaryVector binary when kind == PrimitiveKind.UUID -> InlineArrow.uuid(binary.get(row));
            default -> kind == PrimitiveKind.VARCHAR ? String.valueOf(vector.getObject(row))
                    : kind == PrimitiveKind.UUID ? java.util.UUID.fromString(String.valueOf(vector.getObject(row))) : null;
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
        Boolean containsNan = kind != null && kind.isFloatingPoint() ? nan : null;
        boolean counted = nulls <= slots;
        return Row.of(TableKind.FILE_COLUMN_STATS, dataFileId, tableId, columnId, sizeBytes, counted ? slots - nulls : null, counted ? nulls : null,
                bounds ? statText(min) : null, bounds ? statText(max) : null, containsNan, null);
    }

    /** A FLOAT is carried widened to a double; DuckDB prints it with the float's own shortest digits. */
    private String statText(Object value)
    {
        return kind == PrimitiveKind.FLOAT32 && value instanceof Double number ? DuckLakeValues.floatText(number.floatValue()) : DuckLakeValues.statText(value);
    }
}
