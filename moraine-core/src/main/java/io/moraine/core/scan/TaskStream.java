package io.moraine.core.scan;

import java.util.Iterator;

/** A scan's tasks, planned as they are asked for. Close it to release the catalog cursors planning holds. */
public interface TaskStream
        extends Iterator<ScanTask>, AutoCloseable
{
    @Override
    void close();
}
