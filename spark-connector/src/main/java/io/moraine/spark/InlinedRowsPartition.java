package io.moraine.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One side of a change feed's inlined rows, read from the catalog on the driver while planning, as an Arrow IPC stream
 * in the feed's output schema: executors never open the catalog. (A table scan's inlined rows come in bounded
 * {@link InlinedPiecePartition}s.)
 */
record InlinedRowsPartition(byte[] arrowStream, long rows)
        implements InputPartition {}
