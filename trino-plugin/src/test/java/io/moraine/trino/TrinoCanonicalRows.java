package io.moraine.trino;

import io.moraine.testing.CanonicalText;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.SqlDate;
import io.trino.spi.type.SqlDecimal;
import io.trino.spi.type.SqlTime;
import io.trino.spi.type.SqlTimestamp;
import io.trino.spi.type.SqlTimestampWithTimeZone;
import io.trino.spi.type.SqlVarbinary;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import io.trino.spi.type.VarbinaryType;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;

import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Trino's rows in {@link CanonicalText}. Trino's test client turns only top-level values into Java time and decimal
 * types; nested ones stay Trino's {@code Sql*} values, uuid is a string and a row a {@code MaterializedRow}, so each
 * value is converted by its Trino type.
 */
final class TrinoCanonicalRows
{
    private TrinoCanonicalRows() {}

    static List<List<String>> of(MaterializedResult result)
    {
        List<Type> types = result.getTypes();
        List<List<String>> rows = new ArrayList<>();
        for (MaterializedRow row : result.getMaterializedRows()) {
            List<String> cells = new ArrayList<>(types.size());
            for (int i = 0; i < types.size(); i++) {
                cells.add(CanonicalText.of(plain(types.get(i), row.getField(i))));
            }
            rows.add(cells);
        }
        return rows;
    }

    private static Object plain(Type type, Object value)
    {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case ArrayType array -> ((List<?>) value).stream().map(element -> plain(array.getElementType(), element)).toList();
            case MapType map -> {
                Map<Object, Object> entries = new LinkedHashMap<>();
                ((Map<?, ?>) value).forEach((key, entry) -> entries.put(plain(map.getKeyType(), key), plain(map.getValueType(), entry)));
                yield entries;
            }
            case RowType row -> {
                List<?> values = ((MaterializedRow) value).getFields();
                Map<String, Object> fields = new LinkedHashMap<>();
                for (int i = 0; i < values.size(); i++) {
                    RowType.Field field = row.getFields().get(i);
                    fields.put(field.getName().orElseThrow(), plain(field.getType(), values.get(i)));
                }
                yield new CanonicalText.Struct(fields);
            }
            case UuidType _ -> value instanceof UUID uuid ? uuid : UUID.fromString((String) value);
            case VarbinaryType _ -> value instanceof SqlVarbinary binary ? binary.getBytes() : value;
            case DecimalType _ -> value instanceof SqlDecimal decimal ? decimal.toBigDecimal() : value;
            case DateType _ -> value instanceof SqlDate date ? LocalDate.ofEpochDay(date.getDays()) : value;
            case TimeType _ -> value instanceof SqlTime time ? LocalTime.parse(time.toString()) : value;
            case TimestampType _ -> value instanceof SqlTimestamp timestamp ? timestamp.toLocalDateTime() : value;
            case TimestampWithTimeZoneType _ -> value instanceof SqlTimestampWithTimeZone timestamp ? timestamp.toZonedDateTime() : value;
            default -> value;
        };
    }
}
