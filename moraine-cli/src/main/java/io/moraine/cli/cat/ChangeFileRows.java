package io.moraine.cli.cat;

import io.moraine.core.changes.ChangeKind;
import io.moraine.core.changes.DeletedRows;
import io.moraine.core.changes.DeletedRowsTask;
import io.moraine.core.changes.InsertedRows;
import io.moraine.core.changes.InsertedRowsTask;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.StoreException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.HiddenFields;
import io.moraine.core.types.TableColumn;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads the change rows of one data file, an {@link InsertedRowsTask}'s or a {@link DeletedRowsTask}'s, with
 * parquet-java's example record reader: the columns by field id, the embedded row ids and snapshots when the file has
 * them, positions counted from 0; {@link HiddenFields} refuses a partial file whose rows must be told apart by snapshot
 * but that lacks its snapshot column, and {@link InsertedRows} or {@link DeletedRows} picks the rows and their snapshots.
 */
final class ChangeFileRows
{
    /** Picks a row by its position and embedded snapshot (-1 when the file has none) and names its snapshot, or -1 to skip it. */
    private interface Picker
    {
        long snapshotOf(long position, OptionalLong embeddedSnapshot);
    }

    private final DataFileTask file;
    private final String table;
    private final ChangeKind kind;
    private final HiddenFields hidden;
    private final Picker picker;
    private final List<TableColumn> columns;
    private final LakeFileSystem files;

    private ChangeFileRows(DataFileTask file, String table, ChangeKind kind, HiddenFields hidden, Picker picker, List<TableColumn> columns, LakeFileSystem files)
    {
        this.file = file;
        this.table = table;
        this.kind = kind;
        this.hidden = hidden;
        this.picker = picker;
        this.columns = List.copyOf(columns);
        this.files = files;
    }

    /** @param table the table, {@code schema.table}, for errors about the file */
    static ChangeFileRows insertions(InsertedRowsTask task, String table, List<TableColumn> columns, LakeFileSystem files)
    {
        InsertedRows inserted = InsertedRows.of(task);
        int[] selected = new int[1];
        // The embedded snapshot is read only when the rows are filtered by it, and then the file has it (HiddenFields checked).
        Picker picker = (position, embedded) -> {
            if (inserted.select(1, row -> embedded.orElseThrow(), selected) == 0) {
                return -1;
            }
            return task.file().rowSnapshot(embedded);
        };
        return new ChangeFileRows(task.file(), table, ChangeKind.INSERTION, InsertedRows.hiddenFields(task), picker, columns, files);
    }

    /** @param table the table, {@code schema.table}, for errors about the file */
    static Optional<ChangeFileRows> deletions(DeletedRowsTask task, String table, List<TableColumn> columns, LakeFileSystem files)
    {
        DeletedRows deleted = DeletedRows.of(task, files);
        if (deleted.isEmpty()) {
            return Optional.empty();
        }
        int[] selected = new int[1];
        Picker picker = (position, embedded) -> deleted.select(1, row -> position, selected) == 0 ? -1 : deleted.deletedIn(position);
        return Optional.of(new ChangeFileRows(task.file(), table, ChangeKind.DELETION, HiddenFields.forDeletions(task.file()), picker, columns, files));
    }

    void read(ChangeRowSink sink, DecodedFiles decoded)
    {
        DecodedFiles.File rows = decoded.rows(file, columns, () -> decode());
        hidden.check(rows.embedsSnapshots(), table);
        for (DecodedFiles.Row row : rows.rows()) {
            long snapshot = picker.snapshotOf(row.position(), row.embeddedSnapshot());
            if (snapshot >= 0) {
                sink.accept(kind, snapshot, file.rowId(row.position(), row.embeddedRowId()), row.values());
            }
        }
    }

    /** Every row of the file with its position and the hidden columns it has (decoded once for insertions and deletions alike). */
    private DecodedFiles.File decode()
    {
        List<DecodedFiles.Row> rows = new ArrayList<>();
        boolean embedsSnapshots;
        try (ParquetFileReader reader = io.moraine.core.io.ParquetReaders.open(files.newInputFile(file.path(), OptionalLong.of(file.sizeBytes())))) {
            MessageType fileSchema = file.fileSchema(reader.getFooter().getFileMetaData().getSchema());
            // Whichever hidden columns the file has, whatever this task needs: the decoded rows may serve the file's other task.
            HiddenFields.Found found = HiddenFields.forDeletions(file).in(fileSchema, table);
            embedsSnapshots = found.snapshots().isPresent();
            FileProjection projection = FileProjection.of(fileSchema, columns, found.snapshots(), found.rowIds());
            reader.setRequestedSchema(projection.requested());
            int snapshotIndex = projection.snapshotField().map(name -> projection.requested().getFieldIndex(name)).orElse(-1);
            int rowIdIndex = projection.rowIdField().map(name -> projection.requested().getFieldIndex(name)).orElse(-1);
            long position = 0;
            PageReadStore pages;
            while ((pages = reader.readNextRowGroup()) != null) {
                RecordReader<Group> records = new ColumnIOFactory().getColumnIO(projection.requested(), fileSchema)
                        .getRecordReader(pages, new GroupRecordConverter(projection.requested()));
                for (long row = 0; row < pages.getRowCount(); row++, position++) {
                    Group record = records.read();
                    OptionalLong embeddedSnapshot = snapshotIndex < 0 ? OptionalLong.empty() : OptionalLong.of(record.getLong(snapshotIndex, 0));
                    OptionalLong embeddedRowId = rowIdIndex < 0 ? OptionalLong.empty() : OptionalLong.of(record.getLong(rowIdIndex, 0));
                    rows.add(new DecodedFiles.Row(position, embeddedSnapshot, embeddedRowId, projection.values(record, columns)));
                }
            }
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            throw new NotFoundException("data file " + file.dataFileId() + " is missing at " + file.path(), e);
        }
        catch (IOException e) {
            throw new StoreException("reading data file " + file.path() + " failed: " + e.getMessage(), e);
        }
        return new DecodedFiles.File(embedsSnapshots, rows);
    }
}
