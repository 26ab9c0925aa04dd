package io.moraine.core.store;

/** Point reads and range scans over one consistent or following view of a store. */
public interface KeyValueReader
{
    /** The value under {@code key}, or null. */
    byte[] get(byte[] key);

    /** The entries with {@code start <= key < end}, in key order, fetched {@code pageSize} at a time. */
    KeyValueCursor scan(byte[] start, byte[] end, int pageSize);
}
