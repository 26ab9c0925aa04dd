package io.moraine.spark;

import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * What one task of a DELETE, UPDATE or MERGE did: the rows it deleted, as the core's {@code RowDeletes} names them
 * (file rows by data file id and position, {@code deletedFileIds[i]} with {@code deletedPositions[i]}; inlined rows by
 * row id), the new versions of updated rows (each keeping its row id) and the rows a MERGE inserted.
 */
record RowChangesMessage(WrittenFilesMessage inserted, WrittenFilesMessage updated, long[] deletedFileIds, long[] deletedPositions,
        long[] deletedInlinedRowIds)
        implements WriterCommitMessage {}
