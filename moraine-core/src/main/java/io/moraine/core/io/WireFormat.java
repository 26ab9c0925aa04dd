package io.moraine.core.io;

import io.moraine.core.error.CorruptionException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/**
 * The framing every encoding the core ships to engine workers shares (scan tasks, change tasks, columns): a version
 * byte, then a body written with {@link DataOutputStream}; and the value helpers those bodies use. A worker that reads
 * another version, or bytes cut short, gets a {@link CorruptionException} naming what it was reading.
 */
public final class WireFormat
{
    /** Writes a body. */
    @FunctionalInterface
    public interface Body
    {
        void write(DataOutputStream out)
                throws IOException;
    }

    /** Reads a body. */
    @FunctionalInterface
    public interface Reader<T>
    {
        T read(DataInputStream in)
                throws IOException;
    }

    private WireFormat() {}

    /** {@code version}, then what {@code body} writes. */
    public static byte[] encode(byte version, Body body)
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(version);
            body.write(out);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * What {@code reader} reads from bytes {@link #encode} wrote with {@code version}; {@code what} names the encoding
     * in errors ("a scan task").
     */
    public static <T> T decode(byte[] encoded, byte version, String what, Reader<T> reader)
    {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            byte found = in.readByte();
            if (found != version) {
                throw new CorruptionException(what + " was encoded with version " + found + " of moraine's encoding, this build reads " + version
                        + "; run the coordinator and the workers on the same moraine version");
            }
            return reader.read(in);
        }
        catch (IOException e) {
            throw new CorruptionException(what + "'s bytes are truncated or damaged: " + e.getMessage(), e);
        }
    }

    /** UTF-8 with an int length: paths and partition values may be longer than writeUTF's 64 KB. */
    public static void writeString(DataOutputStream out, String value)
            throws IOException
    {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    public static String readString(DataInputStream in)
            throws IOException
    {
        return new String(in.readNBytes(in.readInt()), StandardCharsets.UTF_8);
    }

    public static void writeOptional(DataOutputStream out, OptionalLong value)
            throws IOException
    {
        out.writeBoolean(value.isPresent());
        if (value.isPresent()) {
            out.writeLong(value.getAsLong());
        }
    }

    public static OptionalLong readOptional(DataInputStream in)
            throws IOException
    {
        return in.readBoolean() ? OptionalLong.of(in.readLong()) : OptionalLong.empty();
    }

    public static void writeLongs(DataOutputStream out, long[] values)
            throws IOException
    {
        out.writeInt(values.length);
        for (long value : values) {
            out.writeLong(value);
        }
    }

    public static long[] readLongs(DataInputStream in)
            throws IOException
    {
        long[] values = new long[in.readInt()];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.readLong();
        }
        return values;
    }
}
