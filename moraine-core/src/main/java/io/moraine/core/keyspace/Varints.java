package io.moraine.core.keyspace;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Unsigned LEB128 integers and length-prefixed UTF-8 strings, as used in store values. */
public final class Varints
{
    private Varints() {}

    public static void write(ByteArrayOutputStream out, int value)
    {
        int v = value;
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    /** Reads a non-negative varint; throws {@link IllegalArgumentException} on a malformed one. */
    public static int read(ByteBuffer in)
    {
        int result = 0;
        for (int shift = 0; shift < 32; shift += 7) {
            int b = in.get() & 0xFF;
            result |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (result < 0) {
                    throw new IllegalArgumentException("negative length");
                }
                return result;
            }
        }
        throw new IllegalArgumentException("varint too long");
    }

    public static void writeString(ByteArrayOutputStream out, String s)
    {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        write(out, bytes.length);
        out.writeBytes(bytes);
    }

    public static String readString(ByteBuffer in)
    {
        byte[] bytes = new byte[read(in)];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
