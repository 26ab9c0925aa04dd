package io.moraine.core.types;

import java.util.List;

/**
 * The column type changes DuckLake allows ({@code ALTER COLUMN ... TYPE}): widening only, where DuckDB's common
 * supertype of the two types is the new one. Checked against DuckDB 1.5.5: integers widen to wider integers (an
 * unsigned one also to a wider signed one), to floats and to decimals with room for every value; decimals to decimals
 * with as many integer and fraction digits, and to floats; FLOAT to DOUBLE; BOOLEAN to numbers; DATE to timestamps;
 * timestamps to finer ones and to TIMESTAMPTZ. Never to or from strings, blobs or across signedness downwards.
 */
public final class TypePromotion
{
    private static final List<PrimitiveKind> SIGNED = List.of(PrimitiveKind.INT8, PrimitiveKind.INT16, PrimitiveKind.INT32, PrimitiveKind.INT64,
            PrimitiveKind.INT128);
    private static final List<PrimitiveKind> UNSIGNED = List.of(PrimitiveKind.UINT8, PrimitiveKind.UINT16, PrimitiveKind.UINT32, PrimitiveKind.UINT64,
            PrimitiveKind.UINT128);
    private static final List<PrimitiveKind> TIMESTAMPS = List.of(PrimitiveKind.TIMESTAMP_S, PrimitiveKind.TIMESTAMP_MS, PrimitiveKind.TIMESTAMP,
            PrimitiveKind.TIMESTAMP_NS);

    private TypePromotion() {}

    /** Whether a column of type {@code source} may become {@code target} (false when they are equal). */
    public static boolean isAllowed(DuckLakeType source, DuckLakeType target)
    {
        if (source.equals(target)) {
            return false;
        }
        if (source instanceof DuckLakeType.Decimal from) {
            return switch (target) {
                case DuckLakeType.Decimal to -> to.precision() - to.scale() >= from.precision() - from.scale() && to.scale() >= from.scale();
                case DuckLakeType.Primitive to -> to.kind() == PrimitiveKind.FLOAT32 || to.kind() == PrimitiveKind.FLOAT64;
                default -> false;
            };
        }
        if (!(source instanceof DuckLakeType.Primitive from)) {
            return false;
        }
        if (target instanceof DuckLakeType.Decimal to) {
            int digits = integerDigits(from.kind());
            return digits > 0 && to.precision() - to.scale() >= digits;
        }
        if (!(target instanceof DuckLakeType.Primitive to)) {
            return false;
        }
        PrimitiveKind a = from.kind();
        PrimitiveKind b = to.kind();
        boolean toFloat = b == PrimitiveKind.FLOAT32 || b == PrimitiveKind.FLOAT64;
        if (a == PrimitiveKind.BOOLEAN) {
            return SIGNED.contains(b) || UNSIGNED.contains(b) || toFloat;
        }
        if (SIGNED.contains(a)) {
            return (SIGNED.contains(b) && SIGNED.indexOf(b) > SIGNED.indexOf(a)) || toFloat;
        }
        if (UNSIGNED.contains(a)) {
            return (UNSIGNED.contains(b) && UNSIGNED.indexOf(b) > UNSIGNED.indexOf(a))
                    || (SIGNED.contains(b) && SIGNED.indexOf(b) > UNSIGNED.indexOf(a)) || toFloat;
        }
        if (a == PrimitiveKind.FLOAT32) {
            return b == PrimitiveKind.FLOAT64;
        }
        if (a == PrimitiveKind.DATE) {
            return TIMESTAMPS.contains(b) || b == PrimitiveKind.TIMESTAMPTZ;
        }
        if (TIMESTAMPS.contains(a)) {
            return (TIMESTAMPS.contains(b) && TIMESTAMPS.indexOf(b) > TIMESTAMPS.indexOf(a)) || b == PrimitiveKind.TIMESTAMPTZ;
        }
        return false;
    }

    /** Decimal digits an integer type needs (DuckDB's decimal width of the type); 0 for other types. */
    private static int integerDigits(PrimitiveKind kind)
    {
        return switch (kind) {
            case INT8, UINT8 -> 3;
            case INT16, UINT16 -> 5;
            case INT32, UINT32 -> 10;
            case INT64 -> 19;
            case UINT64 -> 20;
            case INT128, UINT128 -> 38;
            default -> 0;
        };
    }
}
