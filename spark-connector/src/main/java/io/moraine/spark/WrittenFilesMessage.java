package io.moraine.spark;

import org.apache.spark.sql.connector.write.WriterCommitMessage;

import java.util.List;

/**
 * What one task wrote: its data files, each with the footer its Parquet writer produced (no second read of the file),
 * and the rows it held back for inlining while it stayed within the table's inlining limit.
 *
 * @param inlinedRows the held rows as an Arrow IPC stream ({@link SparkInlinedRows}); null when none
 * @param inlinedRowCount how many rows {@code inlinedRows} holds
 * @param keptRowIds the row id each held row keeps (the new rows of an update), or null for new rows
 */
record WrittenFilesMessage(List<File> files, byte[] inlinedRows, long inlinedRowCount, long[] keptRowIds)
        implements WriterCommitMessage
{
    long fileRowCount()
    {
        return files.stream().mapToLong(File::recordCount).sum();
    }

    /**
     * @param location the file's full path, to delete it when the write is aborted
     * @param path the path the catalog records, relative to the table's
     * @param partitionValues the partition key texts, in key order
     * @param footer the Parquet footer (thrift {@code FileMetaData}) as the writer wrote it
     */
    record File(String location, String path, List<String> partitionValues, long sizeBytes, long footerSize, long recordCount, byte[] footer,
            boolean[] nanWritten)
            implements java.io.Serializable {}
}
