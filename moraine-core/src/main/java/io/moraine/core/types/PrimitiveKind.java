package io.moraine.core.types;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * DuckLake's scalar column types by their catalog names ({@code ducklake_column.column_type}, matched
 * case-insensitively), with the Java class a value of each is carried as (see {@link DuckLakeValues}).
 */
public enum PrimitiveKind
{
    BOOLEAN(Boolean.class, "boolean"),
    INT8(Long.class, "int8"),
    INT16(Long.class, "int16"),
    INT32(Long.class, "int32"),
    INT64(Long.class, "int64"),
    INT128(java.math.BigInteger.class, "int128"),
    UINT8(Long.class, "uint8"),
    UINT16(Long.class, "uint16"),
    UINT32(Long.class, "uint32"),
    UINT64(java.math.BigInteger.class, "uint64"),
    UINT128(java.math.BigInteger.class, "uint128"),
    FLOAT32(Double.class, "float32"),
    FLOAT64(Double.class, "float64"),
    DATE(java.time.LocalDate.class, "date"),
    TIME(java.time.LocalTime.class, "time"),
    TIME_NS(java.time.LocalTime.class, "time_ns"),
    TIMETZ(String.class, "timetz"),
    TIMESTAMP(java.time.LocalDateTime.class, "timestamp", "timestamp_us"),
    TIMESTAMP_S(java.time.LocalDateTime.class, "timestamp_s"),
    TIMESTAMP_MS(java.time.LocalDateTime.class, "timestamp_ms"),
    TIMESTAMP_NS(java.time.LocalDateTime.class, "timestamp_ns"),
    TIMESTAMPTZ(java.time.Instant.class, "timestamptz"),
    INTERVAL(String.class, "interval"),
    VARCHAR(String.class, "varchar"),
    JSON(String.class, "json"),
    BLOB(byte[].class, "blob"),
    UUID(java.util.UUID.class, "uuid"),
    VARIANT(byte[].class, "variant"),
    GEOMETRY(byte[].class, "geometry");

    private static final Map<String, PrimitiveKind> BY_NAME = new HashMap<>();

    static {
        for (PrimitiveKind kind : values()) {
            for (String name : kind.names) {
                BY_NAME.put(name, kind);
            }
        }
    }

    private final Class<?> javaType;
    private final String[] names;

    PrimitiveKind(Class<?> javaType, String... names)
    {
        this.javaType = javaType;
        this.names = names;
    }

    /** The catalog name DuckLake writes for this type. */
    public String duckLakeName()
    {
        return names[0];
    }

    /** The Java class moraine carries a value of this type as. */
    public Class<?> javaType()
    {
        return javaType;
    }

    public static Optional<PrimitiveKind> byName(String name)
    {
        return Optional.ofNullable(BY_NAME.get(name.strip().toLowerCase(Locale.ROOT)));
    }

    public boolean isSignedInteger()
    {
        return this == INT8 || this == INT16 || this == INT32 || this == INT64 || this == INT128;
    }

    public boolean isUnsignedInteger()
    {
        return this == UINT8 || this == UINT16 || this == UINT32 || this == UINT64 || this == UINT128;
    }

    public boolean isInteger()
    {
        return isSignedInteger() || isUnsignedInteger();
    }

    public boolean isFloatingPoint()
    {
        return this == FLOAT32 || this == FLOAT64;
    }

    public boolean isTimestamp()
    {
        return this == TIMESTAMP || this == TIMESTAMP_S || this == TIMESTAMP_MS || this == TIMESTAMP_NS;
    }

    public boolean isText()
    {
        return this == VARCHAR || this == JSON;
    }
}
