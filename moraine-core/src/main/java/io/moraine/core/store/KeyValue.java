package io.moraine.core.store;

import java.util.Arrays;
import java.util.HexFormat;

import static java.util.Objects.requireNonNull;

/**
 * One entry of a range scan: a store key and the value under it. The arrays are the scan's own, not copies; equality
 * compares their contents.
 */
public record KeyValue(byte[] key, byte[] value)
{
    public KeyValue
    {
        requireNonNull(key, "key is null");
        requireNonNull(value, "value is null");
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof KeyValue that && Arrays.equals(key, that.key) && Arrays.equals(value, that.value);
    }

    @Override
    public int hashCode()
    {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
    }

    @Override
    public String toString()
    {
        return "KeyValue[key=" + HexFormat.of().formatHex(key) + ", value=" + value.length + " bytes]";
    }
}
