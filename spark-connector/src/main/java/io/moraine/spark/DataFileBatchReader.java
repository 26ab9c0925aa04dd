package io.moraine.spark;

import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.FieldIds;
import io.moraine.core.scan.HiddenFields;
import io.moraine.core.scan.ScanTaskCodec;
import io.moraine.core.scan.VisibleRows;
import io.moraine.spark.files.CatalogCopies;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.paths.SparkPath;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.v2.parquet.ParquetPartitionReaderFactory;
import org.apache.spark.sql.execution.vectorized.ColumnVectorUtils;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.types.UTF8String;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One data file's visible rows as Spark batches. Spark's vectorized reader reads the file by field id; the core's
 * {@link HiddenFields} refuses a partial file read at an earlier snapshot that lacks its snapshot column (Spark's reader
 * would read it as NULLs), the core's {@link VisibleRows} says which rows of each batch the snapshot sees (none deleted,
 * none newer than it), and the kept rows are passed on through {@link FilteredColumnVector}s — or the reader's own
 * vectors untouched when every row is kept. Columns the file lacks read as their initial default ({@link ConstantColumnVector}); metadata columns are
 * computed from the row positions and DuckLake's hidden row-id and snapshot columns. A file without field ids is read
 * through its name mapping: {@link #footerSchema} and Spark's reader see the field ids the core's mapping gives it.
 */
final class DataFileBatchReader
        implements PartitionReader<ColumnarBatch>
{
    /** Where the hidden columns sit after the data columns in a reader that reads them. */
    private static final int ROW_ID = 0;
    private static final int SNAPSHOT = 1;
    private static final int POSITION = 2;

    private final DataFileTask task;
    private final List<ReadColumn> columns;
    private final List<MetadataColumns.Kind> metadata;
    private final PartitionReader<ColumnarBatch> inner;
    private final VisibleRows visible;
    /** Per data column, whether the file lacks it and it has a default (then the reader's nulls are replaced). */
    private final boolean[] defaulted;
    private final UTF8String filePath;
    private int[] survivors = new int[0];
    private OnHeapColumnVector[] computed;
    private ColumnarBatch batch;

    private DataFileBatchReader(DataFileTask task, List<ReadColumn> columns, List<MetadataColumns.Kind> metadata, PartitionReader<ColumnarBatch> inner,
            VisibleRows visible, boolean[] defaulted)
    {
        this.task = task;
        this.columns = columns;
        this.metadata = metadata;
        this.inner = inner;
        this.visible = visible;
        this.defaulted = defaulted;
        this.filePath = UTF8String.fromString(task.path());
    }

    /** @param table the table, {@code schema.table}, for errors about the file */
    static DataFileBatchReader open(DataFilePartition partition, String table, List<ReadColumn> columns, List<MetadataColumns.Kind> metadata,
            SparkParquetReaders.Template dataOnly, SparkParquetReaders.Template withPositions, Configuration hadoop, Map<Long, Filter> rowGroupFilters)
    {
        DataFileTask task = (DataFileTask) ScanTaskCodec.decode(partition.task());
        VisibleRows visible = VisibleRows.of(task, new HadoopLakeFileSystem(hadoop));
        HiddenFields hiddenFields = HiddenFields.forScan(task);
        boolean hidden = !visible.keepsEveryRow() || !metadata.stream().allMatch(kind -> kind == MetadataColumns.Kind.FILE || kind == MetadataColumns.Kind.FILE_ID);
        boolean needsDefaults = columns.stream().anyMatch(column -> column.defaultValue().isPresent());
        MessageType footer = needsDefaults || !rowGroupFilters.isEmpty() || hiddenFields.needsRowSnapshots() ? footerSchema(task, hadoop) : null;
        if (footer != null) {
            hiddenFields.in(footer, table);
        }
        boolean[] defaulted = needsDefaults ? defaulted(footer, columns) : new boolean[columns.size()];
        Filter[] filters = rowGroupFilters.isEmpty() ? new Filter[0] : RowGroupFilters.forFile(rowGroupFilters, footer);
        PartitionReader<ColumnarBatch> inner = columnarReader(task, (hidden ? withPositions : dataOnly).factory(filters));
        return new DataFileBatchReader(task, columns, metadata, inner, visible, defaulted);
    }

    /**
     * Spark's reader of the task's file: over the catalog's copy when the task carries one (served through
     * {@link CatalogCopies} while the reader is open), else over the file; a file read through a name mapping is
     * matched by the field ids the mapping gives it ({@link MoraineParquetReadSupport#openingThrough}).
     */
    static PartitionReader<ColumnarBatch> columnarReader(DataFileTask task, ParquetPartitionReaderFactory factory)
    {
        return MoraineParquetReadSupport.openingThrough(task.nameMapping(), () -> openColumnarReader(task, factory));
    }

    private static PartitionReader<ColumnarBatch> openColumnarReader(DataFileTask task, ParquetPartitionReaderFactory factory)
    {
        if (task.copy().isEmpty()) {
            return factory.buildColumnarReader(partitionedFile(HadoopLakeFileSystem.hadoopPath(task.path()), task.sizeBytes()));
        }
        CatalogCopies.Registration copy = CatalogCopies.register(task.copy().get(), task.path());
        try {
            return new CopyReader(factory.buildColumnarReader(partitionedFile(copy.path(), copy.length())), copy);
        }
        catch (RuntimeException | Error e) {
            copy.close();
            throw e;
        }
    }

    private static PartitionedFile partitionedFile(org.apache.hadoop.fs.Path path, long length)
    {
        return new PartitionedFile(new GenericInternalRow(0), SparkPath.fromPath(path), 0, length, new String[0], 0L, length,
                scala.collection.immutable.Map$.MODULE$.empty());
    }

    static MessageType footerSchema(DataFileTask task, Configuration hadoop)
    {
        try (ParquetFileReader reader = task.copy().isPresent()
                ? io.moraine.core.io.ParquetReaders.open(task.copy().get().inputFile())
                : ParquetFileReader.open(HadoopInputFile.fromPath(HadoopLakeFileSystem.hadoopPath(task.path()), hadoop))) {
            return task.fileSchema(reader.getFooter().getFileMetaData().getSchema());
        }
        catch (IOException e) {
            throw new UncheckedIOException("reading the footer of " + task.path() + " failed: " + e.getMessage(), e);
        }
    }

    /** Which columns with an initial default the file whose schema is {@code footer} lacks, by field id. */
    static boolean[] defaulted(MessageType footer, List<ReadColumn> columns)
    {
        boolean[] defaulted = new boolean[columns.size()];
        for (int i = 0; i < defaulted.length; i++) {
            defaulted[i] = columns.get(i).defaultValue().isPresent() && !FieldIds.has(footer, columns.get(i).columnId());
        }
        return defaulted;
    }

    @Override
    public boolean next()
            throws IOException
    {
        while (inner.next()) {
            ColumnarBatch read = inner.get();
            int rows = read.numRows();
            int kept = rows;
            int[] selection = null;
            if (!visible.keepsEveryRow()) {
                if (survivors.length < rows) {
                    survivors = new int[rows];
                }
                ColumnVector positions = read.column(columns.size() + POSITION);
                ColumnVector snapshots = read.column(columns.size() + SNAPSHOT);
                // Read only when the snapshot filters by them, and then the file has them (HiddenFields checked).
                kept = visible.select(rows, positions::getLong, snapshots::getLong, survivors);
                selection = kept == rows ? null : survivors;
            }
            if (kept == 0) {
                continue;
            }
            batch = output(read, selection, kept);
            return true;
        }
        return false;
    }

    private ColumnarBatch output(ColumnarBatch read, int[] selection, int kept)
    {
        ColumnVector[] vectors = new ColumnVector[columns.size() + metadata.size()];
        for (int i = 0; i < columns.size(); i++) {
            ReadColumn column = columns.get(i);
            if (defaulted[i]) {
                vectors[i] = constant(column.logicalType(), CatalystValues.toCatalyst(column.logicalType(), column.defaultValue().orElseThrow()), kept);
                continue;
            }
            ColumnVector vector = ConvertedColumnVector.wrap(column, read.column(i));
            vectors[i] = selection == null ? vector : new FilteredColumnVector(vector, selection, kept);
        }
        for (int i = 0; i < metadata.size(); i++) {
            vectors[columns.size() + i] = switch (metadata.get(i)) {
                case FILE -> constant(DataTypes.StringType, filePath, kept);
                case FILE_ID -> constant(DataTypes.LongType, task.dataFileId(), kept);
                case POS, ROW_ID, SNAPSHOT_ID -> computed(i, metadata.get(i), read, selection, kept);
            };
        }
        return new ColumnarBatch(vectors, kept);
    }

    /** Positions, row ids or row snapshots of the kept rows, into a vector reused across batches. */
    private ColumnVector computed(int index, MetadataColumns.Kind kind, ColumnarBatch read, int[] selection, int kept)
    {
        if (computed == null) {
            computed = new OnHeapColumnVector[metadata.size()];
        }
        if (computed[index] == null) {
            computed[index] = new OnHeapColumnVector(Math.max(kept, read.numRows()), DataTypes.LongType);
        }
        OnHeapColumnVector vector = computed[index];
        vector.reset();
        vector.reserve(kept);
        ColumnVector positions = read.column(columns.size() + POSITION);
        ColumnVector rowIds = read.column(columns.size() + ROW_ID);
        ColumnVector snapshots = read.column(columns.size() + SNAPSHOT);
        for (int i = 0; i < kept; i++) {
            int row = selection == null ? i : selection[i];
            long value = switch (kind) {
                case POS -> positions.getLong(row);
                case ROW_ID -> task.rowId(positions.getLong(row), rowIds.isNullAt(row) ? OptionalLong.empty() : OptionalLong.of(rowIds.getLong(row)));
                case SNAPSHOT_ID -> task.rowSnapshot(snapshots.isNullAt(row) ? OptionalLong.empty() : OptionalLong.of(snapshots.getLong(row)));
                case FILE, FILE_ID -> throw new IllegalStateException();
            };
            vector.putLong(i, value);
        }
        return vector;
    }

    static ColumnVector constant(org.apache.spark.sql.types.DataType type, Object value, int rows)
    {
        ConstantColumnVector vector = new ConstantColumnVector(rows, type);
        ColumnVectorUtils.populate(vector, new GenericInternalRow(new Object[] {value}), 0);
        return vector;
    }

    @Override
    public org.apache.spark.sql.connector.metric.CustomTaskMetric[] currentMetricsValues()
    {
        return new org.apache.spark.sql.connector.metric.CustomTaskMetric[] {DataFilesOpened.of(filesOpened())};
    }

    /** 1, or 0 when the file is read from the catalog's copy of it. */
    long filesOpened()
    {
        return task.copy().isPresent() ? 0 : 1;
    }

    @Override
    public ColumnarBatch get()
    {
        return batch;
    }

    @Override
    public void close()
            throws IOException
    {
        try {
            inner.close();
        }
        finally {
            if (computed != null) {
                for (OnHeapColumnVector vector : computed) {
                    if (vector != null) {
                        vector.close();
                    }
                }
            }
        }
    }
}
