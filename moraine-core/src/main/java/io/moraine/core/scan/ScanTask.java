package io.moraine.core.scan;

import java.io.Serializable;

/** One unit of a scan an engine hands to a worker: a data file (or a byte range of one), or a table's inlined rows. */
public sealed interface ScanTask
        extends Serializable
        permits DataFileTask, InlinedRowsTask
{
    long tableId();

    /** The snapshot the scan reads. */
    long snapshotId();
}
