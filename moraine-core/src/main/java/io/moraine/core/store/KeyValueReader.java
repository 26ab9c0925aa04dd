package io.moraine.core.store;

/** Point reads and range scans over one consistent or following view of a store. */
public interface KeyValueReader
{
    /** The value under {@code key}, or null. */
    byte[] get(byte[] key);

    /** The values under {@code keys} (null where absent), fetched concurrently where the store allows. */
    default java.util.List<byte[]> getAll(java.util.List<byte[]> keys)
    {
        java.util.List<byte[]> values = new java.util.ArrayList<>(keys.size());
        for (byte[] key : keys) {
            values.add(get(key));
        }
        return values;
    }

    /**
     * Starts fetching the values under {@code keys} and returns at once where the store allows, so that the caller can
     * work while they arrive; {@link PendingReads#await()} collects them.
     */
    default PendingReads startGetAll(java.util.List<byte[]> keys)
    {
        return PendingReads.done(getAll(keys));
    }

    /** The entries with {@code start <= key < end}, in key order, fetched {@code pageSize} at a time. */
    KeyValueCursor scan(byte[] start, byte[] end, int pageSize);

    /**
     * The entries with {@code start <= key < end}, greatest key first, fetched {@code pageSize} at a time: with a page
     * of 1, the greatest key below a bound costs one entry however many lie in the range.
     */
    KeyValueCursor scanDescending(byte[] start, byte[] end, int pageSize);
}
