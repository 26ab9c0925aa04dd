package io.moraine.core.keyspace;

import java.nio.ByteBuffer;

/** Store keys and values arrive wrapped in ByteBuffers (as map keys of a batch); SlateDB takes arrays. */
public final class KeyBytes
{
    private KeyBytes() {}

    /** The remaining bytes of {@code buffer}, copied; the buffer's position is left as it was. */
    public static byte[] toArray(ByteBuffer buffer)
    {
        ByteBuffer duplicate = buffer.duplicate();
        byte[] bytes = new byte[duplicate.remaining()];
        duplicate.get(bytes);
        return bytes;
    }
}
