package io.moraine.spark;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.MoraineException;
import io.moraine.core.scan.ScanFilter;
import io.moraine.core.stats.TableStatistics;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.util.Arrays;
import java.util.OptionalLong;
import java.util.stream.IntStream;

/** {@code count(*)} of a table answered from the catalog: one row holding the exact row count once per pushed count. */
record MetadataCountScan(MoraineTable table, long rowCount, int counts)
        implements LocalScan
{
    /** The table's row count at its snapshot when the catalog makes it exact (the core's rule), else empty. */
    static OptionalLong exactRowCount(MoraineTable table)
    {
        try (CatalogSnapshot snapshot = OpenStores.catalog(table.settings()).at(table.snapshotId())) {
            return TableStatistics.of(snapshot, table.tableId(), table.tableSchema(), ScanFilter.all()).rowCount();
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
    }

    @Override
    public InternalRow[] rows()
    {
        Object[] values = new Object[counts];
        Arrays.fill(values, rowCount);
        return new InternalRow[] {new GenericInternalRow(values)};
    }

    @Override
    public StructType readSchema()
    {
        return new StructType(IntStream.range(0, counts).mapToObj(i -> new StructField("agg_func_" + i, DataTypes.LongType, false,
                org.apache.spark.sql.types.Metadata.empty())).toArray(StructField[]::new));
    }

    @Override
    public String description()
    {
        return "moraine " + table.name() + "@" + table.snapshotId() + " count(*) from the catalog = " + rowCount;
    }
}
