package io.moraine.core.catalog;

import io.moraine.core.keyspace.KeyNames;
import io.moraine.core.store.StoreReadListener;

import java.util.ArrayList;
import java.util.List;

/** Records every store read by the kind of record it addresses ({@link KeyNames}): point reads and scans apart. */
final class CountingReads
        implements StoreReadListener
{
    private final List<String> points = new ArrayList<>();
    private final List<String> scans = new ArrayList<>();

    @Override
    public synchronized void pointRead(byte[] key)
    {
        points.add(KeyNames.describe(key));
    }

    @Override
    public synchronized void rangeScan(byte[] start, byte[] end)
    {
        scans.add(KeyNames.describe(start));
    }

    synchronized List<String> points()
    {
        return List.copyOf(points);
    }

    /** The record kind where each scan starts. */
    synchronized List<String> scans()
    {
        return List.copyOf(scans);
    }

    synchronized void clear()
    {
        points.clear();
        scans.clear();
    }
}
