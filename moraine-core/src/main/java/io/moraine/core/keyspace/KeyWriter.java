package io.moraine.core.keyspace;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * Builds order-preserving store keys: byte-wise comparison of two keys orders them as their components would sort.
 * Integers are 8 bytes big-endian with the sign bit flipped; strings are UTF-8 with 0x00 escaped as 0x00 0xFF and a
 * 0x00 0x00 terminator; a nullable component is preceded by 0x00 (NULL, sorts first) or 0x01 (present).
 */
public final class KeyWriter
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(32);

    public KeyWriter tag(byte tag)
    {
        out.write(tag);
        return this;
    }

    public KeyWriter int64(long value)
    {
        long flipped = value ^ Long.MIN_VALUE;
        for (int shift = 56; shift >= 0; shift -= 8) {
            out.write((int) (flipped >>> shift));
        }
        return this;
    }

    public KeyWriter string(String value)
    {
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            out.write(b);
            if (b == 0) {
                out.write(0xFF);
            }
        }
        out.write(0);
        out.write(0);
        return this;
    }

    /** Writes one catalog cell: presence byte, then the value in its order-preserving form. */
    public KeyWriter cell(Object value)
    {
        if (value == null) {
            out.write(0);
            return this;
        }
        out.write(1);
        switch (value) {
            case Long l -> int64(l);
            case String s -> string(s);
            case Boolean b -> out.write(b ? 1 : 0);
            case Instant instant -> int64(Micros.of(instant));
            case UUID uuid -> int64(uuid.getMostSignificantBits()).int64(uuid.getLeastSignificantBits());
            default -> throw new IllegalArgumentException("not a catalog cell: " + value.getClass());
        }
        return this;
    }

    public byte[] toBytes()
    {
        return out.toByteArray();
    }

    /** The smallest key greater than every key that starts with {@code prefix}. */
    public static byte[] prefixEnd(byte[] prefix)
    {
        byte[] end = prefix.clone();
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xFF) {
                end[i]++;
                return java.util.Arrays.copyOf(end, i + 1);
            }
        }
        throw new IllegalArgumentException("prefix has no upper bound");
    }
}
