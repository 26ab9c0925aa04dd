package io.moraine.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * A table's inlined rows at the scan's snapshot, read from the catalog on the driver while planning, as an Arrow IPC
 * stream in the scan's output schema: executors never open the catalog.
 */
record InlinedRowsPartition(byte[] arrowStream, long rows)
        implements InputPartition {}
