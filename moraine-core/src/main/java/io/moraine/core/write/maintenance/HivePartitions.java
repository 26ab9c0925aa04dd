package io.moraine.core.write.maintenance;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.PrimitiveKind;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The hive partition directories of a file's path and their values, as DuckDB 1.5.5 reads them
 * ({@code HivePartitioning::Parse} and {@code GetValue}): every directory {@code key=value} (one {@code =}, not first) is
 * a partition, the first of a key wins; a value is URL-decoded, {@code __HIVE_DEFAULT_PARTITION__} is NULL, and for a
 * type other than VARCHAR so are {@code NULL} (any case) and the empty text; other values are cast to the type and
 * printed as DuckDB prints a value ({@code Value::ToString}), which is what DuckLake stores.
 */
final class HivePartitions
{
    private static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";

    private HivePartitions() {}

    /** The {@code key=value} directories of {@code path}, keys as written (DuckDB looks them up case-sensitively). */
    static Map<String, String> parse(String path)
    {
        Map<String, String> partitions = new HashMap<>();
        int start = 0;
        int equals = 0;
        boolean candidate = true;
        for (int c = 0; c < path.length(); c++) {
            char ch = path.charAt(c);
            if (ch == '?' || ch == '\n') {
                candidate = false;
            }
            if (ch == '\\' || ch == '/') {
                if (candidate && equals > start) {
                    partitions.putIfAbsent(path.substring(start, equals), path.substring(equals + 1, c));
                }
                start = c + 1;
                candidate = true;
            }
            else if (ch == '=') {
                if (equals > start) {
                    candidate = false;
                }
                equals = c;
            }
        }
        return partitions;
    }

    /**
     * The text DuckLake stores for hive value {@code raw} of key {@code key} read as {@code type}, null for NULL. A value
     * that does not cast is refused as DuckDB refuses it; a type the core cannot cast text to is refused, naming it.
     */
    static String valueText(String key, String raw, DuckLakeType type, String file)
    {
        if (raw.equals(DEFAULT_PARTITION)) {
            return null;
        }
        if (type instanceof DuckLakeType.Primitive primitive && primitive.kind() == PrimitiveKind.VARCHAR) {
            return unescape(raw);
        }
        if (raw.equalsIgnoreCase("NULL") || raw.isEmpty()) {
            return null;
        }
        String value = unescape(raw);
        try {
            return cast(value, type).orElseThrow(() -> new UnsupportedFeatureException("hive partition directory " + key + "=" + raw + " of file \""
                    + file + "\" names a column of type " + typeName(type) + ", whose values the core does not read from paths (it reads booleans, "
                    + "numbers, decimals, VARCHAR, DATE, TIMESTAMP and UUID); add the file through DuckDB's ducklake_add_data_files"));
        }
        catch (ArithmeticException | IllegalArgumentException | java.time.DateTimeException e) {
            throw new InvalidArgumentException("Unable to cast '" + value + "' (from hive partition column '" + key.toUpperCase(Locale.ROOT) + "') to: '"
                    + typeName(type) + "' in the path of file \"" + file + "\"; rename the directory to a value of the column's type, or add the file "
                    + "with hivePartitioning off (hive_partitioning => false)", e);
        }
    }

    /** The type as DuckDB names it in messages. */
    static String typeName(DuckLakeType type)
    {
        if (type instanceof DuckLakeType.Decimal decimal) {
            return "DECIMAL(" + decimal.precision() + "," + decimal.scale() + ")";
        }
        if (!(type instanceof DuckLakeType.Primitive primitive)) {
            return type.duckLakeName().toUpperCase(Locale.ROOT);
        }
        return switch (primitive.kind()) {
            case INT8 -> "TINYINT";
            case INT16 -> "SMALLINT";
            case INT32 -> "INTEGER";
            case INT64 -> "BIGINT";
            case UINT8 -> "UTINYINT";
            case UINT16 -> "USMALLINT";
            case UINT32 -> "UINTEGER";
            case UINT64 -> "UBIGINT";
            case INT128 -> "HUGEINT";
            case UINT128 -> "UHUGEINT";
            case FLOAT32 -> "FLOAT";
            case FLOAT64 -> "DOUBLE";
            case TIMESTAMPTZ -> "TIMESTAMP WITH TIME ZONE";
            case TIMETZ -> "TIME WITH TIME ZONE";
            default -> primitive.kind().name();
        };
    }

    private static String unescape(String raw)
    {
        return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static Optional<String> cast(String value, DuckLakeType type)
    {
        String text = value.strip();
        if (type instanceof DuckLakeType.Decimal decimal) {
            BigDecimal number = new BigDecimal(text).setScale(decimal.scale(), RoundingMode.HALF_UP);
            if (number.precision() > decimal.precision()) {
                throw new ArithmeticException("out of range");
            }
            return Optional.of(number.toPlainString());
        }
        if (!(type instanceof DuckLakeType.Primitive primitive)) {
            return Optional.empty();
        }
        return Optional.ofNullable(switch (primitive.kind()) {
            case BOOLEAN -> switch (text.toLowerCase(Locale.ROOT)) {
                case "true", "t", "1" -> "true";
                case "false", "f", "0" -> "false";
                default -> throw new IllegalArgumentException("not a boolean");
            };
            case INT8 -> integer(text, -128, 127);
            case INT16 -> integer(text, Short.MIN_VALUE, Short.MAX_VALUE);
            case INT32 -> integer(text, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case INT64 -> integer(text, Long.MIN_VALUE, Long.MAX_VALUE);
            case UINT8 -> integer(text, 0, 255);
            case UINT16 -> integer(text, 0, 65535);
            case UINT32 -> integer(text, 0, 4294967295L);
            case UINT64 -> big(text, BigInteger.ZERO, BigInteger.TWO.pow(64).subtract(BigInteger.ONE));
            case INT128 -> big(text, BigInteger.TWO.pow(127).negate(), BigInteger.TWO.pow(127).subtract(BigInteger.ONE));
            case FLOAT32 -> DuckLakeValues.floatText(Float.parseFloat(text));
            case FLOAT64 -> DuckLakeValues.doubleText(Double.parseDouble(text));
            case DATE, TIMESTAMP, TIMESTAMP_S, TIMESTAMP_MS, TIMESTAMP_NS, UUID -> DuckLakeValues.text(DuckLakeValues.parseStat(type, text)
                    .orElseThrow(() -> new IllegalArgumentException("not a " + typeName(type))));
            default -> null;
        });
    }

    private static String integer(String text, long min, long max)
    {
        long number = Long.parseLong(text.startsWith("+") ? text.substring(1) : text);
        if (number < min || number > max) {
            throw new ArithmeticException("out of range");
        }
        return Long.toString(number);
    }

    private static String big(String text, BigInteger min, BigInteger max)
    {
        BigInteger number = new BigInteger(text.startsWith("+") ? text.substring(1) : text);
        if (number.compareTo(min) < 0 || number.compareTo(max) > 0) {
            throw new ArithmeticException("out of range");
        }
        return number.toString();
    }
}
