package io.moraine.spark;

import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.vectorized.ColumnarBatch;

import java.io.IOException;
import java.util.Iterator;
import java.util.function.Function;

/** Reads a {@link DataFileGroupPartition}'s files one after another, each with its own {@link DataFileBatchReader}. */
final class DataFileGroupReader
        implements PartitionReader<ColumnarBatch>
{
    private final Iterator<DataFilePartition> files;
    private final Function<DataFilePartition, DataFileBatchReader> open;
    private DataFileBatchReader current;
    private long filesOpened;

    DataFileGroupReader(DataFileGroupPartition group, Function<DataFilePartition, DataFileBatchReader> open)
    {
        this.files = group.files().iterator();
        this.open = open;
    }

    @Override
    public boolean next()
            throws IOException
    {
        while (true) {
            if (current == null) {
                if (!files.hasNext()) {
                    return false;
                }
                current = open.apply(files.next());
                filesOpened += current.filesOpened();
            }
            if (current.next()) {
                return true;
            }
            DataFileBatchReader done = current;
            current = null;
            done.close();
        }
    }

    @Override
    public ColumnarBatch get()
    {
        return current.get();
    }

    @Override
    public CustomTaskMetric[] currentMetricsValues()
    {
        return new CustomTaskMetric[] {DataFilesOpened.of(filesOpened)};
    }

    @Override
    public void close()
            throws IOException
    {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
