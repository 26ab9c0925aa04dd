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
 * hashes values, seed 0: signed integers, booleans and dates (epoch days) as 8-byte little-endian longs, timestamps and
 * timestamptz as their microseconds since the epoch, strings as their UTF-8 bytes. Values are in moraine's classes
 * ({@link DuckLakeValues}); other types have no known hashing.
 */
public final class BucketHash
{
    private static final HashFunction MURMUR3 = Hashing.murmur3_32_fixed();

    private BucketHash() {}

    /** The bucket {@code value} falls in, or empty when its hashing is unknown. */
    public static Optional<Integer> bucketOf(Object value, int buckets)
    {
        return hash(value).map(hash -> (hash & Integer.MAX_VALUE) % buckets);
    }

    private static Optional<Integer> hash(Object value)
    {
        return switch (value) {
            case Long number -> Optional.of(MURMUR3.hashLong(number).asInt());
            case LocalDate date -> Optional.of(MURMUR3.hashLong(date.toEpochDay()).asInt());
            case String text -> Optional.of(MURMUR3.hashBytes(text.getBytes(StandardCharsets.UTF_8)).asInt());
            case Boolean bool -> Optional.of(MURMUR3.hashLong(bool ? 1 : 0).asInt());
            case LocalDateTime timestamp -> Optional.of(MURMUR3.hashLong(micros(timestamp.toInstant(ZoneOffset.UTC))).asInt());
            case Instant instant -> Optional.of(MURMUR3.hashLong(micros(instant)).asInt());
            default -> Optional.empty();
        };
    }

    private static long micros(Instant instant)
    {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
    }
}
