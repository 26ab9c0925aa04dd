package io.moraine.spark;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.MoraineException;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.scan.ScanFilter;
import io.moraine.core.scan.ScanTask;
import io.moraine.core.scan.ScanTaskCodec;
import io.moraine.core.scan.TaskStream;
import io.moraine.core.types.TableColumn;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.connector.read.SupportsRuntimeV2Filtering;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import io.moraine.core.scan.ColumnDomain;
import io.moraine.core.types.DuckLakeType;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * A scan of a moraine table at its snapshot, planned by the core's Scan API on the driver: one input partition per
 * data file the filter does not rule out (whole files: Spark's reader picks a split's row groups by their midpoint,
 * the core's planner by their start), and the inlined rows, read here into the inline reader's bounded pieces (at most
 * 8,192 rows and 1 MiB of Arrow IPC each, one partition per piece) so that executors never open the catalog.
 */
final class MoraineScan
        implements Scan, Batch, SupportsReportStatistics, SupportsRuntimeV2Filtering
{
    private final MoraineTable table;
    private final List<TableColumn> columns;
    private final List<MetadataColumns.Column> metadata;
    private ScanFilter filter;
    private final long limit;
    private final List<ReadColumn> readColumns;
    private List<InputPartition> partitions;
    private long fileBytes;
    private long certainRows;
    private boolean exact;

    MoraineScan(MoraineTable table, List<TableColumn> columns, List<MetadataColumns.Column> metadata, ScanFilter filter, long limit)
    {
        for (TableColumn column : columns) {
            String unreadable = SparkTypes.unreadable(column);
            if (unreadable != null) {
                throw SparkErrors.unsupported("column " + column.name() + " of " + table.name() + " has type " + column.type().duckLakeName()
                        + " (" + unreadable + "), which the Spark connector cannot read yet; leave it out of the query");
            }
        }
        this.table = table;
        this.columns = List.copyOf(columns);
        this.metadata = List.copyOf(metadata);
        this.filter = filter;
        this.limit = limit;
        this.readColumns = columns.stream().map(ReadColumn::of).toList();
    }

    @Override
    public StructType readSchema()
    {
        List<StructField> fields = new ArrayList<>();
        for (ReadColumn column : readColumns) {
            fields.add(new StructField(column.name(), column.logicalType(), true, Metadata.empty()));
        }
        for (MetadataColumns.Column column : metadata) {
            fields.add(new StructField(column.name(), column.dataType(), column.isNullable(), Metadata.empty()));
        }
        return new StructType(fields.toArray(StructField[]::new));
    }

    @Override
    public String description()
    {
        return "moraine " + table.name() + "@" + table.snapshotId() + " columns=" + columns.stream().map(TableColumn::name).toList()
                + (metadata.isEmpty() ? "" : " metadata=" + metadata.stream().map(MetadataColumns.Column::name).toList())
                + (filter.isAll() ? "" : " prune=" + filter.domains().keySet()) + (limit >= 0 ? " limit=" + limit : "");
    }

    @Override
    public ColumnarSupportMode columnarSupportMode()
    {
        return ColumnarSupportMode.SUPPORTED;
    }

    @Override
    public org.apache.spark.sql.connector.metric.CustomMetric[] supportedCustomMetrics()
    {
        return new org.apache.spark.sql.connector.metric.CustomMetric[] {new DataFilesOpened()};
    }

    @Override
    public Batch toBatch()
    {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions()
    {
        return plan().toArray(InputPartition[]::new);
    }

    @Override
    public PartitionReaderFactory createReaderFactory()
    {
        SparkSession session = SparkSession.active();
        StructType data = new StructType(readColumns.stream().map(ReadColumn::physicalField).toArray(StructField[]::new));
        StructType withPositions = data
                .add(SparkTypes.withFieldId("_ducklake_internal_row_id", DataTypes.LongType, DataFileTask.ROW_ID_FIELD_ID))
                .add(SparkTypes.withFieldId("_ducklake_internal_snapshot_id", DataTypes.LongType, DataFileTask.SNAPSHOT_ID_FIELD_ID))
                .add(new StructField("_tmp_metadata_row_index", DataTypes.LongType, true, Metadata.empty()));
        return new MoraineReaderFactory(table.lakeName(), readColumns, metadata.stream().map(MetadataColumns.Column::kind).toList(),
                SparkParquetReaders.template(session, data), SparkParquetReaders.template(session, withPositions),
                SparkParquetReaders.hadoopConfiguration(session), filter.isNone() ? new HashMap<>() : RowGroupFilters.byColumnId(filter.domains()));
    }

    @Override
    public Statistics estimateStatistics()
    {
        plan();
        long bytes = fileBytes;
        OptionalLong rows = exact ? OptionalLong.of(certainRows) : OptionalLong.empty();
        return new Statistics()
        {
            @Override
            public OptionalLong sizeInBytes()
            {
                return OptionalLong.of(bytes);
            }

            @Override
            public OptionalLong numRows()
            {
                return rows;
            }
        };
    }

    /** The read top-level scalar columns: what a join's runtime filter (dynamic partition pruning) can prune files by. */
    @Override
    public NamedReference[] filterAttributes()
    {
        return columns.stream()
                .filter(column -> column.type() instanceof DuckLakeType.Primitive || column.type() instanceof DuckLakeType.Decimal)
                .map(column -> Expressions.column(column.name()))
                .toArray(NamedReference[]::new);
    }

    /** Prunes files by a runtime filter too; the plan is made again, and Spark still applies the filter to the rows. */
    @Override
    public synchronized void filter(Predicate[] predicates)
    {
        ScanFilter runtime = SparkFilters.convert(predicates, table.tableSchema()).filter();
        if (runtime.isAll()) {
            return;
        }
        if (runtime.isNone() || filter.isNone()) {
            filter = ScanFilter.none();
        }
        else {
            Map<Long, ColumnDomain> domains = new HashMap<>(runtime.domains());
            // Where both constrain a column, the planned filter's domain is kept (either alone is a correct superset).
            domains.putAll(filter.domains());
            filter = ScanFilter.of(domains);
        }
        partitions = null;
    }

    /** The data files, small ones packed into shared partitions by Spark's own file-source settings. */
    private static List<InputPartition> packed(List<DataFilePartition> files, List<Long> sizes)
    {
        SparkSession session = SparkSession.active();
        org.apache.spark.sql.internal.SQLConf conf = session.sessionState().conf();
        long openCost = conf.filesOpenCostInBytes();
        long totalCost = sizes.stream().mapToLong(size -> size + openCost).sum();
        long maxGroupBytes = DataFileGroupPartition.maxGroupBytes(totalCost, conf.filesMaxPartitionBytes(), openCost,
                conf.filesMinPartitionNum().isDefined() ? (Integer) conf.filesMinPartitionNum().get() : session.sparkContext().defaultParallelism());
        return DataFileGroupPartition.pack(files, sizes, openCost, maxGroupBytes);
    }

    private synchronized List<InputPartition> plan()
    {
        if (partitions != null) {
            return partitions;
        }
        List<InputPartition> planned = new ArrayList<>();
        List<DataFilePartition> files = new ArrayList<>();
        List<Long> fileSizes = new ArrayList<>();
        long bytes = 0;
        long rows = 0;
        boolean allCertain = true;
        io.moraine.core.catalog.MoraineCatalog catalog = OpenStores.catalog(table.settings());
        try (CatalogSnapshot snapshot = catalog.at(table.snapshotId())) {
            io.moraine.core.scan.ScanBuilder builder = io.moraine.core.scan.ScanBuilder.forTable(snapshot, table.tableId(), table::tableSchema)
                    .withProjection(columns.stream().map(TableColumn::columnId).toList())
                    .withFilter(filter)
                    .withDataPath(table.settings().dataPath())
                    .withAllowedLocations(table.settings().allowed())
                    .withMaxSplitSize(Long.MAX_VALUE)
                    .withCatalogCopies(table.settings().tinyFiles());
            if (filter.domains().containsKey(io.moraine.core.scan.HiddenColumn.ROW_ID.columnId())) {
                // the core asks the published row summaries only about files the catalog cannot prove positional
                builder.withRowIdMembership(RowSummaries.membership(SparkParquetReaders.driverConfiguration(SparkSession.active())));
            }
            if (limit >= 0) {
                builder.withLimit(limit);
            }
            try (TaskStream tasks = builder.build().planTasks()) {
                while (tasks.hasNext()) {
                    ScanTask task = tasks.next();
                    switch (task) {
                        case DataFileTask file -> {
                            files.add(new DataFilePartition(ScanTaskCodec.encode(file), file.path()));
                            fileSizes.add(file.splitLength());
                            bytes += file.sizeBytes();
                            rows += file.certainRows();
                            allCertain &= file.certainRows() == file.recordCount();
                        }
                        case InlinedRowsTask inlined -> {
                            for (InlinedPiecePartition partition : InlinedRowsEncoder.pieces(snapshot, inlined, columns, readSchema())) {
                                planned.add(partition);
                                bytes += partition.piece().length;
                                rows += partition.rows();
                            }
                        }
                    }
                }
            }
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
        planned.addAll(packed(files, fileSizes));
        this.partitions = List.copyOf(planned);
        this.fileBytes = bytes;
        this.certainRows = rows;
        this.exact = allCertain && limit < 0;
        return partitions;
    }
}
