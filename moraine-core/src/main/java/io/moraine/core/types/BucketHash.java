package io.moraine.core.types;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * DuckLake's {@code bucket(N)} partition transform (reference §9): {@code (murmur3_32(v) & 0x7fffffff) % N} as DuckDB
 * hashes values, seed 0. DuckDB hashes by the column's physical type; moraine hashes the types whose hashing the tests
 * check against DuckDB: signed integers, booleans and dates (epoch days) as 8-byte little-endian longs,
 * {@code timestamp} and {@code timestamptz} as their microseconds since the epoch, varchar as its UTF-8 bytes. Other
 * types (unsigned integers and UUIDs hash their text, decimals their unscaled value or text, timestamps of other units
 * their own unit) have no bucket here: such files are not pruned, and the flush refuses to write them.
 */
public final class BucketHash
{
    private static final HashFunction MURMUR3 = Hashing.murmur3_32_fixed();

    private BucketHash() {}

    /** The bucket a value of {@code type} (in moraine's class for it) falls in, or empty when its hashing is not known here. */
    public static Optional<Integer> bucketOf(DuckLakeType type, Object value, int buckets)
    {
        return hash(type, value).map(hash -> (hash & Integer.MAX_VALUE) % buckets);
    }

    private static Optional<Integer> hash(DuckLakeType type, Object value)
    {
        if (!(type instanceof DuckLakeType.Primitive primitive)) {
            return Optional.empty();
        }
        return switch (primitive.kind()) {
            case INT8, INT16, INT32, INT64 -> value instanceof Long number ? Optional.of(MURMUR3.hashLong(number).asInt()) : Optional.empty();
            case BOOLEAN -> value instanceof Boolean bool ? Optional.of(MURMUR3.hashLong(bool ? 1 : 0).asInt()) : Optional.empty();
            case DATE -> value instanceof LocalDate date ? Optional.of(MURMUR3.hashLong(date.toEpochDay()).asInt()) : Optional.empty();
            case VARCHAR -> value instanceof String text ? Optional.of(MURMUR3.hashBytes(text.getBytes(StandardCharsets.UTF_8)).asInt()) : Optional.empty();
            case TIMESTAMP -> value instanceof LocalDateTime timestamp
                    ? Optional.of(MURMUR3.hashLong(micros(timestamp.toInstant(ZoneOffset.UTC))).asInt())
                    : Optional.empty();
            case TIMESTAMPTZ -> value instanceof Instant instant ? Optional.of(MURMUR3.hashLong(micros(instant)).asInt()) : Optional.empty();
            default -> Optional.empty();
        };
    }

    private static long micros(Instant instant)
    {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
    }
}
