package io.moraine.spark;

import io.moraine.spark.files.CatalogCopies;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.vectorized.ColumnarBatch;

import java.io.IOException;

/** Spark's reader of a catalog copy: the copy stays registered until the reader is closed. */
final class CopyReader
        implements PartitionReader<ColumnarBatch>
{
    private final PartitionReader<ColumnarBatch> inner;
    private final CatalogCopies.Registration copy;

    CopyReader(PartitionReader<ColumnarBatch> inner, CatalogCopies.Registration copy)
    {
        this.inner = inner;
        this.copy = copy;
    }

    @Override
    public boolean next()
            throws IOException
    {
        return inner.next();
    }

    @Override
    public ColumnarBatch get()
    {
        return inner.get();
    }

    @Override
    public CustomTaskMetric[] currentMetricsValues()
    {
        return inner.currentMetricsValues();
    }

    @Override
    public void close()
            throws IOException
    {
        try {
            inner.close();
        }
        finally {
            copy.close();
        }
    }
}
