package io.moraine.core.store;

/**
 * Hears of every read a store handle issues: one call per point read and per range scan opened, made before the read.
 * Engines use it to trace or count catalog I/O (a Trino file-operations test pins these counts).
 */
public interface StoreReadListener
{
    StoreReadListener NONE = new StoreReadListener()
    {
        @Override
        public void pointRead(byte[] key) {}

        @Override
        public void rangeScan(byte[] start, byte[] end) {}
    };

    void pointRead(byte[] key);

    void rangeScan(byte[] start, byte[] end);
}
