package io.moraine.spark;

import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * The scan's "data files opened" metric (Spark's SQL tab, and {@code BatchScanExec.metrics()}): one per data-file
 * reader that opens its file (one reading the catalog's copy of a tiny file opens none), so that what {@code _row_id} and other pruning saved is visible. Public with a no-argument constructor:
 * Spark makes the driver's instance by name.
 */
public final class DataFilesOpened
        extends CustomSumMetric
{
    static final String NAME = "dataFilesOpened";

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public String description()
    {
        return "data files opened";
    }

    /** What a reader that opened {@code files} data files reports. */
    static CustomTaskMetric of(long files)
    {
        return new CustomTaskMetric()
        {
            @Override
            public String name()
            {
                return NAME;
            }

            @Override
            public long value()
            {
                return files;
            }
        };
    }
}
