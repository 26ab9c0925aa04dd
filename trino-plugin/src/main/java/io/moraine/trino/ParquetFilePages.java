package io.moraine.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.filesystem.Location;
import io.trino.filesystem.memory.MemoryInputFile;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.FieldIds;
import io.moraine.core.scan.HiddenColumn;
import io.moraine.core.scan.HiddenFields;
import io.moraine.files.TrinoLakeFileSystem;
import io.moraine.core.scan.VisibleRows;
import io.moraine.core.types.TableColumn;
import io.trino.parquet.Column;
import io.trino.parquet.ParquetDataSource;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.predicate.TupleDomainParquetPredicate;
import io.trino.parquet.reader.MetadataReader;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.EmptyPageSource;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TypeOperators;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.ColumnIO;
import org.apache.parquet.io.GroupColumnIO;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.MessageType;
import org.joda.time.DateTimeZone;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;
import static io.trino.parquet.ParquetTypeUtils.constructField;
import static io.trino.parquet.ParquetTypeUtils.getColumnIO;
import static io.trino.parquet.ParquetTypeUtils.getDescriptors;
import static io.trino.parquet.ParquetTypeUtils.lookupColumnById;
import static io.trino.parquet.predicate.PredicateUtils.buildPredicate;
import static io.trino.parquet.predicate.PredicateUtils.getFilteredRowGroups;
import static io.trino.spi.type.BigintType.BIGINT;

/**
 * Opens the row groups of one DuckLake data file that a split covers, at a snapshot, with Trino's Parquet reader
 * (reference §4): columns matched by field id (a column the file lacks reads as its default); row groups and pages
 * the predicate rules out by their statistics, column indexes or dictionaries are skipped; the rows the core's
 * {@link VisibleRows} keeps are selected by {@link ParquetFilePageSource}.
 */
final class ParquetFilePages
{
    private static final int DOMAIN_COMPACTION_THRESHOLD = 1000;
    private static final int FOOTER_TRAILER_BYTES = 8;
    private static final String ABSENT_FIELD = "\u0000field absent from this file";
    private static final TypeOperators TYPE_OPERATORS = new TypeOperators();

    private ParquetFilePages() {}

    /**
     * @param readColumns the core's columns of {@code columns}, in the same order (their nested ids find struct fields);
     *         empty when no projected column holds a struct
     */
    static ConnectorPageSource open(DataFileTask dataFile, MoraineTableHandle table, TrinoLakeFileSystem files, List<MoraineColumnHandle> columns,
            List<TableColumn> readColumns, TupleDomain<MoraineColumnHandle> predicate, ParquetReaderOptions options)
    {
        VisibleRows[] visibility = new VisibleRows[1];
        Optional<OpenedFile> opened = openFile(dataFile, table.name().toString(), files, columns, readColumns, predicate, options, () -> {
            visibility[0] = VisibleRows.of(dataFile, files);
            HiddenFields rule = HiddenFields.forScan(dataFile);
            return new ReadFields(rule, rule.needsRowSnapshots(), false, visibility[0].needsPositions());
        });
        return opened.<ConnectorPageSource>map(file -> new ParquetFilePageSource(file.source(), file.reader(), columns, file.fieldOfColumn(), file.computed(),
                dataFile, file.snapshotField(), file.positionField(), visibility[0])).orElseGet(EmptyPageSource::new);
    }

    /**
     * The hidden fields a reader wants besides the table's columns: the embedded snapshot (when the file has it; the
     * core's {@code rule} says when it must, and refuses a file without it), the embedded row id (when the file has
     * one), and each row's position in the file.
     */
    record ReadFields(HiddenFields rule, boolean snapshots, boolean rowIds, boolean positions) {}

    /**
     * A data file open for reading: its reader's fields are the projected columns the file has ({@code fieldOfColumn},
     * -1 for one it lacks), then the hidden ones asked for ({@code -1} when not read); {@code computed} names the
     * projected hidden columns computed from the task rather than read (null for the others).
     */
    record OpenedFile(ParquetDataSource source, ParquetReader reader, int[] fieldOfColumn, HiddenColumn[] computed, int snapshotField, int rowIdField,
            int positionField) {}

    /**
     * Opens the row groups of {@code dataFile} its split covers and {@code predicate} does not rule out, or nothing when
     * there are none; {@code hidden} is asked once some row group is to be read.
     */
    static Optional<OpenedFile> openFile(DataFileTask dataFile, String tableName, TrinoLakeFileSystem files, List<MoraineColumnHandle> columns,
            List<TableColumn> readColumns, TupleDomain<MoraineColumnHandle> predicate, ParquetReaderOptions options, Supplier<ReadFields> hidden)
    {
        String path = dataFile.path();
        ParquetDataSource source = null;
        try {
            source = dataSource(dataFile, files, options);
            ParquetMetadata metadata = footer(source, dataFile.footerSize(), options);
            MessageType fileSchema = dataFile.fileSchema(metadata.getFileMetaData().getSchema());
            MessageColumnIO columnIO = getColumnIO(fileSchema, fileSchema);
            Map<List<String>, ColumnDescriptor> descriptors = getDescriptors(fileSchema, fileSchema);
            TupleDomain<ColumnDescriptor> fileDomain = ParquetPredicates.forFile(predicate, columnIO);
            TupleDomainParquetPredicate parquetPredicate = buildPredicate(fileSchema, fileDomain, descriptors, DateTimeZone.UTC);
            List<RowGroupInfo> rowGroups = getFilteredRowGroups(dataFile.splitStart(), dataFile.splitLength(), source, metadata, List.of(fileDomain), List.of(parquetPredicate),
                    descriptors, DateTimeZone.UTC, DOMAIN_COMPACTION_THRESHOLD, options);
            if (rowGroups.isEmpty()) {
                source.close();
                return Optional.empty();
            }

            if (!RowIdPredicate.mayMatch(dataFile, predicate, FieldIds.has(fileSchema, DataFileTask.ROW_ID_FIELD_ID))) {
                source.close();
                return Optional.empty();
            }

            ReadFields wanted = hidden.get();
            HiddenFields.Found hiddenFields = wanted.rule().in(fileSchema, tableName);
            List<Column> fields = new ArrayList<>();
            int[] fieldOfColumn = new int[columns.size()];
            HiddenColumn[] computed = new HiddenColumn[columns.size()];
            boolean hiddenNeedsPositions = false;
            for (int i = 0; i < columns.size(); i++) {
                MoraineColumnHandle column = columns.get(i);
                fieldOfColumn[i] = -1;
                Optional<HiddenColumn> hiddenColumn = column.hiddenColumn();
                // $row_id and $snapshot_id are read from the file's embedded columns when it has them, else computed.
                if (hiddenColumn.isPresent() && !FieldIds.has(fileSchema, column.columnId())) {
                    computed[i] = hiddenColumn.get();
                    hiddenNeedsPositions |= hiddenColumn.get() == HiddenColumn.FILE_ROW_NUMBER || hiddenColumn.get() == HiddenColumn.ROW_ID;
                    continue;
                }
                Optional<ColumnIO> io = FieldIds.find(fileSchema, column.columnId()).map(field -> lookupColumnById(columnIO, field.getId().intValue()));
                if (io.isPresent()) {
                    fieldOfColumn[i] = fields.size();
                    io.trino.spi.type.Type readType = readColumns.isEmpty() ? column.type() : namedAsInFile(column.type(), readColumns.get(i), io.get());
                    fields.add(new Column(column.name(), constructField(readType, io.get()).orElseThrow()));
                }
            }
            int snapshotField = -1;
            // A projected $snapshot_id read from the embedded column is that field: the reader reads a column once.
            for (int i = 0; i < columns.size(); i++) {
                if (wanted.snapshots() && fieldOfColumn[i] >= 0 && columns.get(i).columnId() == DataFileTask.SNAPSHOT_ID_FIELD_ID) {
                    snapshotField = fieldOfColumn[i];
                }
            }
            if (wanted.snapshots() && snapshotField < 0 && hiddenFields.snapshots().isPresent()) {
                snapshotField = fields.size();
                fields.add(new Column(HiddenFields.SNAPSHOT_ID_NAME, constructField(BIGINT, lookupColumnById(columnIO, DataFileTask.SNAPSHOT_ID_FIELD_ID)).orElseThrow()));
            }
            int rowIdField = -1;
            if (wanted.rowIds() && hiddenFields.rowIds().isPresent()) {
                rowIdField = fields.size();
                fields.add(new Column(HiddenFields.ROW_ID_NAME, constructField(BIGINT, lookupColumnById(columnIO, DataFileTask.ROW_ID_FIELD_ID)).orElseThrow()));
            }
            // Positions are file positions: the reader appends each row's position after the fields.
            boolean needsPositions = wanted.positions() || hiddenNeedsPositions;
            int positionField = needsPositions ? fields.size() : -1;
            ParquetDataSource opened = source;
            ParquetReader reader = new ParquetReader(Optional.ofNullable(metadata.getFileMetaData().getCreatedBy()), fields, needsPositions, rowGroups,
                    source, DateTimeZone.UTC, newSimpleAggregatedMemoryContext(), options,
                    e -> new TrinoException(MoraineErrorCode.MORAINE_CANNOT_READ_DATA, "reading " + opened.getId() + " failed: " + e.getMessage(), e),
                    fileDomain.isAll() ? Optional.empty() : Optional.of(parquetPredicate), Optional.empty(), Optional.empty());
            return Optional.of(new OpenedFile(source, reader, fieldOfColumn, computed, snapshotField, rowIdField, positionField));
        }
        catch (IOException | RuntimeException e) {
            closeQuietly(source);
            if (isMissingFile(e)) {
                throw new TrinoException(MoraineErrorCode.MORAINE_MISSING_DATA, "data file " + dataFile.dataFileId() + " of table " + tableName + " is missing at " + path
                        + "; if the lake's files were moved, set moraine.data-path to their new root", e);
            }
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new TrinoException(MoraineErrorCode.MORAINE_CANNOT_READ_DATA, "reading data file " + path + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * {@code type} with its struct fields named as the file names them, found by field id at every level (Trino's reader
     * finds struct fields by name, and a field renamed since the file was written has its old name there). A field the
     * file lacks gets a name no file has, so it reads as NULL. Lists and maps are found by position, as DuckDB writes
     * them (list/element, key_value/key/value).
     */
    private static io.trino.spi.type.Type namedAsInFile(io.trino.spi.type.Type type, TableColumn column, ColumnIO io)
    {
        if (type instanceof RowType row && io instanceof GroupColumnIO group) {
            List<RowType.Field> fields = new ArrayList<>();
            for (int i = 0; i < row.getFields().size(); i++) {
                RowType.Field field = row.getFields().get(i);
                TableColumn child = column.children().get(i);
                ColumnIO childIo = lookupColumnById(group, (int) child.columnId());
                fields.add(childIo == null
                        ? RowType.field(ABSENT_FIELD, field.getType())
                        : RowType.field(childIo.getName(), namedAsInFile(field.getType(), child, childIo)));
            }
            return RowType.from(fields);
        }
        if (type instanceof ArrayType array && nestedChild(io, 0, 0) instanceof ColumnIO element) {
            return new ArrayType(namedAsInFile(array.getElementType(), column.children().getFirst(), element));
        }
        if (type instanceof MapType map && nestedChild(io, 0, 0) instanceof ColumnIO key && nestedChild(io, 0, 1) instanceof ColumnIO value) {
            return new MapType(namedAsInFile(map.getKeyType(), column.children().get(0), key), namedAsInFile(map.getValueType(), column.children().get(1), value),
                    TYPE_OPERATORS);
        }
        return type;
    }

    /** Child {@code second} of child {@code first} of a group, or null. */
    private static ColumnIO nestedChild(ColumnIO io, int first, int second)
    {
        if (io instanceof GroupColumnIO group && group.getChildrenCount() > first && group.getChild(first) instanceof GroupColumnIO inner
                && inner.getChildrenCount() > second) {
            return inner.getChild(second);
        }
        return null;
    }

    /** The file's bytes: the catalog's copy of a tiny file when the task carries one (no file opened), else the file. */
    private static ParquetDataSource dataSource(DataFileTask dataFile, TrinoLakeFileSystem files, ParquetReaderOptions options)
            throws IOException
    {
        if (dataFile.copy().isPresent()) {
            Slice bytes = Slices.wrappedBuffer(dataFile.copy().get().toByteArray());
            return new TrinoInputDataSource(new MemoryInputFile(Location.of("moraine-copy:///" + dataFile.dataFileId()), bytes), bytes.length(), options);
        }
        return new TrinoInputDataSource(files.trinoInputFile(dataFile.path(), dataFile.sizeBytes()), dataFile.sizeBytes(), options);
    }

    /** The footer, fetched in one read of exactly its size when the catalog records {@code footer_size} (reference §4.1). */
    private static ParquetMetadata footer(ParquetDataSource source, OptionalLong footerSize, ParquetReaderOptions options)
            throws IOException
    {
        if (footerSize.isEmpty() || footerSize.getAsLong() <= 0 || footerSize.getAsLong() + FOOTER_TRAILER_BYTES > source.getEstimatedSize()) {
            return MetadataReader.readFooter(source, options, Optional.empty(), Optional.empty());
        }
        Slice tail = source.readTail((int) (footerSize.getAsLong() + FOOTER_TRAILER_BYTES));
        return MetadataReader.parseFooter(source.getId(), source.getEstimatedSize(), tail, Optional.empty(), Optional.empty());
    }

    static boolean isMissingFile(Throwable failure)
    {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof FileNotFoundException || cause instanceof java.nio.file.NoSuchFileException) {
                return true;
            }
        }
        return false;
    }

    private static void closeQuietly(ParquetDataSource source)
    {
        if (source == null) {
            return;
        }
        try {
            source.close();
        }
        catch (IOException ignored) {
            // the open already failed; that error is the one to report
        }
    }
}
