package io.moraine.spark;

import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.types.StructType;

/**
 * A bounded piece of a table's inlined rows at the scan's snapshot, read from the catalog on the driver while planning
 * (the inline reader's {@code InlinedRowsPiece}: its columns as each schema version wrote them, found by column id) and
 * converted to the scan's output schema on the executor ({@link InlinedPieceBatchReader}): executors never open the
 * catalog.
 *
 * @param piece the piece's Arrow IPC stream
 * @param output the scan's output schema: the piece's columns, then the metadata columns asked for
 */
record InlinedPiecePartition(byte[] piece, long rows, StructType output)
        implements InputPartition {}
