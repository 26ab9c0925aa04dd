package io.moraine.spark;

import io.moraine.core.changes.ChangeTaskCodec;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.DeletedRows;
import io.moraine.core.changes.DeletedRowsTask;
import io.moraine.core.changes.InsertedRows;
import io.moraine.core.changes.InsertedRowsTask;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.HiddenFields;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.datasources.v2.parquet.ParquetPartitionReaderFactory;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.types.UTF8String;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One data file's rows inserted or deleted in a change feed's range, as Spark batches: Spark's vectorized reader reads
 * the file by field id with its row positions and DuckLake's hidden columns; the core's {@link HiddenFields} refuses a
 * partial file whose rows must be told apart by snapshot but that lacks its snapshot column, and {@link InsertedRows} or
 * {@link DeletedRows} picks the rows and names each one's snapshot.
 */
final class ChangeFileBatchReader
        implements PartitionReader<ColumnarBatch>
{
    private static final int ROW_ID = 0;
    private static final int SNAPSHOT = 1;
    private static final int POSITION = 2;

    private final DataFileTask file;
    private final InsertedRows inserted;
    private final DeletedRows deleted;
    private final List<ReadColumn> columns;
    private final boolean[] defaulted;
    private final Map<Long, Long> commitTimes;
    private final PartitionReader<ColumnarBatch> inner;
    private final UTF8String changeType;
    private final OnHeapColumnVector[] computed = new OnHeapColumnVector[4];
    private int[] selected = new int[0];
    private ColumnarBatch batch;

    private ChangeFileBatchReader(DataFileTask file, InsertedRows inserted, DeletedRows deleted, List<ReadColumn> columns, boolean[] defaulted,
            Map<Long, Long> commitTimes, PartitionReader<ColumnarBatch> inner)
    {
        this.file = file;
        this.inserted = inserted;
        this.deleted = deleted;
        this.columns = columns;
        this.defaulted = defaulted;
        this.commitTimes = commitTimes;
        this.inner = inner;
        this.changeType = UTF8String.fromString(inserted != null ? "insert" : "delete");
    }

    /** @param table the table, {@code schema.table}, for errors about the file */
    static PartitionReader<ColumnarBatch> open(ChangeFilePartition partition, String table, List<ReadColumn> columns, ParquetPartitionReaderFactory withPositions,
            Configuration hadoop, Map<Long, Long> commitTimes)
    {
        ChangeTask task = ChangeTaskCodec.decodeTask(partition.task());
        InsertedRows inserted = null;
        DeletedRows deleted = null;
        DataFileTask file;
        HiddenFields hiddenFields;
        switch (task) {
            case InsertedRowsTask insertion -> {
                file = insertion.file();
                inserted = InsertedRows.of(insertion);
                hiddenFields = InsertedRows.hiddenFields(insertion);
            }
            case DeletedRowsTask deletion -> {
                file = deletion.file();
                hiddenFields = HiddenFields.forDeletions(file);
                deleted = DeletedRows.of(deletion, new HadoopLakeFileSystem(hadoop));
                if (deleted.isEmpty()) {
                    return new EmptyReader();
                }
            }
            default -> throw new IllegalArgumentException("not a data-file change task: " + task);
        }
        boolean needsDefaults = columns.stream().anyMatch(column -> column.defaultValue().isPresent());
        // Spark's reader reads a column the file lacks as NULLs: the footer says whether the file has its snapshots.
        MessageType footer = needsDefaults || hiddenFields.needsRowSnapshots() ? DataFileBatchReader.footerSchema(file, hadoop) : null;
        if (footer != null) {
            hiddenFields.in(footer, table);
        }
        boolean[] defaulted = needsDefaults ? DataFileBatchReader.defaulted(footer, columns) : new boolean[columns.size()];
        return new ChangeFileBatchReader(file, inserted, deleted, columns, defaulted, commitTimes, DataFileBatchReader.columnarReader(file, withPositions));
    }

    @Override
    public boolean next()
            throws IOException
    {
        while (inner.next()) {
            ColumnarBatch read = inner.get();
            int rows = read.numRows();
            if (selected.length < rows) {
                selected = new int[rows];
            }
            ColumnVector positions = read.column(columns.size() + POSITION);
            ColumnVector snapshots = read.column(columns.size() + SNAPSHOT);
            int kept = inserted != null
                    ? inserted.select(rows, snapshots::getLong, selected)
                    : deleted.select(rows, positions::getLong, selected);
            if (kept == 0) {
                continue;
            }
            batch = output(read, kept);
            return true;
        }
        return false;
    }

    private ColumnarBatch output(ColumnarBatch read, int kept)
    {
        ColumnVector[] vectors = new ColumnVector[columns.size() + ChangelogColumns.FIELDS.size()];
        for (int i = 0; i < columns.size(); i++) {
            ReadColumn column = columns.get(i);
            vectors[i] = defaulted[i]
                    ? DataFileBatchReader.constant(column.logicalType(), CatalystValues.toCatalyst(column.logicalType(), column.defaultValue().orElseThrow()), kept)
                    : new FilteredColumnVector(ConvertedColumnVector.wrap(column, read.column(i)), selected, kept);
        }
        ColumnVector positions = read.column(columns.size() + POSITION);
        ColumnVector rowIds = read.column(columns.size() + ROW_ID);
        ColumnVector snapshots = read.column(columns.size() + SNAPSHOT);
        OnHeapColumnVector commit = vector(0, kept, DataTypes.LongType);
        OnHeapColumnVector time = vector(1, kept, DataTypes.TimestampType);
        OnHeapColumnVector rowId = vector(2, kept, DataTypes.LongType);
        OnHeapColumnVector rowVersion = vector(3, kept, DataTypes.LongType);
        for (int i = 0; i < kept; i++) {
            int row = selected[i];
            long position = positions.getLong(row);
            long written = file.rowSnapshot(snapshots.isNullAt(row) ? OptionalLong.empty() : OptionalLong.of(snapshots.getLong(row)));
            long snapshot = inserted != null ? written : deleted.deletedIn(position);
            commit.putLong(i, snapshot);
            Long micros = commitTimes.get(snapshot);
            if (micros == null) {
                // The snapshot was expired: its time is gone.
                time.putNull(i);
            }
            else {
                time.putLong(i, micros);
            }
            rowId.putLong(i, file.rowId(position, rowIds.isNullAt(row) ? OptionalLong.empty() : OptionalLong.of(rowIds.getLong(row))));
            rowVersion.putLong(i, written);
        }
        int base = columns.size();
        vectors[base] = DataFileBatchReader.constant(DataTypes.StringType, changeType, kept);
        vectors[base + 1] = commit;
        vectors[base + 2] = time;
        vectors[base + 3] = rowId;
        vectors[base + 4] = rowVersion;
        return new ColumnarBatch(vectors, kept);
    }

    private OnHeapColumnVector vector(int index, int rows, org.apache.spark.sql.types.DataType type)
    {
        if (computed[index] == null) {
            computed[index] = new OnHeapColumnVector(Math.max(rows, 4096), type);
        }
        computed[index].reset();
        computed[index].reserve(rows);
        return computed[index];
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
            for (OnHeapColumnVector vector : computed) {
                if (vector != null) {
                    vector.close();
                }
            }
        }
    }

    /** A deletion task whose file lost no row in the range: nothing to read. */
    private static final class EmptyReader
            implements PartitionReader<ColumnarBatch>
    {
        @Override
        public boolean next()
        {
            return false;
        }

        @Override
        public ColumnarBatch get()
        {
            throw new IllegalStateException("no batch");
        }

        @Override
        public void close() {}
    }
}
