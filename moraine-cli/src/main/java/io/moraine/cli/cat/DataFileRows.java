package io.moraine.cli.cat;

import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.StoreException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.HiddenFields;
import io.moraine.core.scan.VisibleRows;
import io.moraine.core.types.TableColumn;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads the visible rows of one {@link DataFileTask} with parquet-java's example record reader: the read columns by
 * field id (a column the file lacks reads as its default), the hidden snapshot column when {@link VisibleRows} filters
 * by it (a partial file without it is refused by {@link HiddenFields}), and row positions counted from 0 across the
 * file's row groups, read in batches that {@link VisibleRows} selects from.
 */
final class DataFileRows
{
    private static final int BATCH_ROWS = 4096;

    private final DataFileTask task;
    private final String table;
    private final List<TableColumn> columns;
    private final LakeFileSystem files;

    /** @param table the table, {@code schema.table}, for errors about the file */
    DataFileRows(DataFileTask task, String table, List<TableColumn> columns, LakeFileSystem files)
    {
        this.task = task;
        this.table = table;
        this.columns = List.copyOf(columns);
        this.files = files;
    }

    void read(RowSink sink)
    {
        try (ParquetFileReader reader = io.moraine.core.io.ParquetReaders.open(files.newInputFile(task.path(), OptionalLong.of(task.sizeBytes())))) {
            VisibleRows visible = VisibleRows.of(task, files);
            MessageType fileSchema = task.fileSchema(reader.getFooter().getFileMetaData().getSchema());
            HiddenFields hidden = HiddenFields.forScan(task);
            HiddenFields.Found found = hidden.in(fileSchema, table);
            FileProjection projection = FileProjection.of(fileSchema, columns, hidden.needsRowSnapshots() ? found.snapshots() : Optional.empty(), Optional.empty());
            reader.setRequestedSchema(projection.requested());
            long firstPosition = 0;
            for (BlockMetaData rowGroup : reader.getRowGroups()) {
                if (!inSplit(rowGroup)) {
                    reader.skipNextRowGroup();
                }
                else if (projection.requested().getFieldCount() == 0) {
                    reader.skipNextRowGroup();
                    readWithoutFields(rowGroup.getRowCount(), firstPosition, visible, sink);
                }
                else {
                    PageReadStore pages = reader.readNextRowGroup();
                    RecordReader<Group> records = new ColumnIOFactory().getColumnIO(projection.requested(), fileSchema)
                            .getRecordReader(pages, new GroupRecordConverter(projection.requested()));
                    readRowGroup(records, pages.getRowCount(), firstPosition, projection, visible, sink);
                }
                firstPosition += rowGroup.getRowCount();
            }
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            throw new NotFoundException("data file " + task.dataFileId() + " is missing at " + task.path()
                    + "; if the lake's files were moved, pass their new root with --data-path", e);
        }
        catch (IOException e) {
            throw new StoreException("reading data file " + task.path() + " failed: " + e.getMessage(), e);
        }
    }

    /** Whether this task reads the row group: it starts in the task's byte range. */
    private boolean inSplit(BlockMetaData rowGroup)
    {
        long start = rowGroup.getStartingPos();
        return start >= task.splitStart() && start < task.splitStart() + task.splitLength();
    }

    private void readRowGroup(RecordReader<Group> records, long rowCount, long firstPosition, FileProjection projection, VisibleRows visible, RowSink sink)
    {
        Group[] batch = new Group[BATCH_ROWS];
        int[] survivors = new int[BATCH_ROWS];
        int snapshotIndex = projection.snapshotField().map(name -> projection.requested().getFieldIndex(name)).orElse(-1);
        for (long done = 0; done < rowCount; ) {
            int rows = (int) Math.min(BATCH_ROWS, rowCount - done);
            for (int i = 0; i < rows; i++) {
                batch[i] = records.read();
            }
            long batchStart = firstPosition + done;
            int kept = visible.select(rows, row -> batchStart + row, row -> batch[row].getLong(snapshotIndex, 0), survivors);
            for (int i = 0; i < kept; i++) {
                sink.accept(projection.values(batch[survivors[i]], columns));
            }
            done += rows;
        }
    }

    /** A row group of a file that has none of the read columns: every row holds the defaults. */
    private void readWithoutFields(long rowCount, long firstPosition, VisibleRows visible, RowSink sink)
    {
        int[] survivors = new int[BATCH_ROWS];
        for (long done = 0; done < rowCount; ) {
            int rows = (int) Math.min(BATCH_ROWS, rowCount - done);
            long batchStart = firstPosition + done;
            int kept = visible.select(rows, row -> batchStart + row, null, survivors);
            for (int i = 0; i < kept; i++) {
                sink.accept(defaults());
            }
            done += rows;
        }
    }

    private Object[] defaults()
    {
        return columns.stream().map(CellValues::missing).toArray();
    }
}
